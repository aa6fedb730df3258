import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { Icon } from "./icon.js";

const DEBOUNCE_MS = 300;

type Props = {
  label: string;
  /** Read out with the field, shown under it. */
  hint?: string;
  placeholder?: string;
  maxLength: number;
  /** The search the list shows now (from the URL). */
  value: string;
  /** Applies a search: after a pause in typing, or at once on Enter. */
  onSearch: (value: string) => void;
  /** The box's width in its row. */
  className?: string;
};

/**
 * A labelled search field for a server-side list: what is typed is applied after a short pause
 * (one request per pause, not per key), or at once on Enter, and the field follows the list's
 * search when it changes from outside (the back button, a link).
 */
export function SearchBox({
  label,
  hint,
  placeholder,
  maxLength,
  value,
  onSearch,
  className = "w-full sm:max-w-md",
}: Props) {
  const [input, setInput] = useState(value);
  const applied = useRef(value);
  const field = useRef<HTMLInputElement>(null);
  const id = useId();
  const hintId = useId();

  // Typed into a prerendered page before its code ran: keep that text, and search for it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, as the page's code takes over
  useEffect(() => {
    const typed = field.current?.value ?? "";
    if (typed !== input) setInput(typed);
  }, []);

  // Follow the list's search when it changes from outside (back button, a link), not our own echo.
  useEffect(() => {
    if (value !== applied.current) {
      applied.current = value;
      setInput(value);
    }
  }, [value]);

  useEffect(() => {
    const next = input.trim();
    if (next === applied.current) return;
    const timer = window.setTimeout(() => {
      applied.current = next;
      onSearch(next);
    }, DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [input, onSearch]);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const next = input.trim();
    if (next === applied.current) return;
    applied.current = next;
    onSearch(next);
  };

  return (
    <search className={className}>
      <form onSubmit={submit}>
        <label htmlFor={id} className="mb-1 block text-sm font-medium">
          {label}
        </label>
        <div className="input w-full">
          <Icon
            path="M21 21l-4.3-4.3M10.5 18a7.5 7.5 0 110-15 7.5 7.5 0 010 15z"
            className="h-5 w-5 fill-none stroke-current stroke-2 opacity-70"
          />
          <input
            ref={field}
            id={id}
            type="search"
            name="search"
            value={input}
            onChange={(event) => setInput(event.target.value)}
            placeholder={placeholder}
            maxLength={maxLength}
            autoComplete="off"
            aria-describedby={hint ? hintId : undefined}
            className="grow"
          />
        </div>
        {hint ? (
          <p id={hintId} className="mt-1 text-sm text-base-content/75">
            {hint}
          </p>
        ) : null}
      </form>
    </search>
  );
}
