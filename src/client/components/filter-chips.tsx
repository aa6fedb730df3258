import { useId } from "react";
import { Link } from "react-router";

export type Chip = { key: string; label: string; href: string; active: boolean };

/**
 * Filter chips under a visible label; each is a link, so a filtered list can be shared and the
 * back button works.
 */
export function FilterChips({ label, chips }: { label: string; chips: readonly Chip[] }) {
  const labelId = useId();
  return (
    <nav aria-labelledby={labelId}>
      <p id={labelId} className="mb-1 text-sm font-medium">
        {label}
      </p>
      <ul className="flex flex-wrap gap-2">
        {chips.map((chip) => (
          <li key={chip.key}>
            <Link
              to={chip.href}
              preventScrollReset
              aria-current={chip.active ? "page" : undefined}
              className={
                chip.active ? "btn btn-sm btn-primary" : "btn btn-sm btn-outline border-base-content/25"
              }
            >
              {chip.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
