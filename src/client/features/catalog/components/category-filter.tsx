import { Link } from "react-router";
import { CATEGORIES, CATEGORY_LABELS, type Category } from "../../../../shared/constants.js";
import { catalogMessages } from "../../../../shared/messages/catalog.js";

type Props = {
  selected: Category | undefined;
  /** The URL of the list filtered by a category (undefined: all categories). */
  hrefFor: (category: Category | undefined) => string;
};

/** Category chips; each is a link, so a filtered list can be shared and the back button works. */
export function CategoryFilter({ selected, hrefFor }: Props) {
  const options: ReadonlyArray<{ value: Category | undefined; label: string }> = [
    { value: undefined, label: catalogMessages.allCategories },
    ...CATEGORIES.map((value) => ({ value, label: CATEGORY_LABELS[value] })),
  ];
  return (
    <nav aria-label={catalogMessages.categoryLabel}>
      <ul className="flex flex-wrap gap-2">
        {options.map((option) => {
          const active = option.value === selected;
          return (
            <li key={option.value ?? "all"}>
              <Link
                to={hrefFor(option.value)}
                preventScrollReset
                aria-current={active ? "page" : undefined}
                className={
                  active ? "btn btn-sm btn-primary" : "btn btn-sm btn-outline border-base-content/25"
                }
              >
                {option.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
