import { type FormEvent, useEffect, useRef, useState } from "react";
import { catalogMessages } from "../../../../shared/messages/catalog.js";

const DEBOUNCE_MS = 300;

type Props = {
  value: string;
  onSearch: (value: string) => void;
};

/** A labelled search box that applies what is typed after a short pause, or at once on Enter. */
export function SearchField({ value, onSearch }: Props) {
  const [input, setInput] = useState(value);
  const applied = useRef(value);
  const field = useRef<HTMLInputElement>(null);

  // Typed into a prerendered page before its code ran: keep that text, and search for it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, as the page's code takes over
  useEffect(() => {
    const typed = field.current?.value ?? "";
    if (typed !== input) setInput(typed);
  }, []);

  // Follow the URL when it changes from outside (back button, a link), not our own echo.
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
    <search className="w-full sm:max-w-sm">
      <form onSubmit={submit}>
        <label htmlFor="product-search" className="mb-1 block text-sm font-medium">
          {catalogMessages.searchLabel}
        </label>
        <div className="input w-full">
          <svg
            viewBox="0 0 24 24"
            aria-hidden="true"
            className="h-5 w-5 fill-none stroke-current stroke-2 opacity-70"
          >
            <path d="M21 21l-4.3-4.3M10.5 18a7.5 7.5 0 110-15 7.5 7.5 0 010 15z" />
          </svg>
          <input
            ref={field}
            id="product-search"
            type="search"
            name="search"
            value={input}
            onChange={(event) => setInput(event.target.value)}
            placeholder={catalogMessages.searchPlaceholder}
            maxLength={100}
            autoComplete="off"
            className="grow"
          />
        </div>
      </form>
    </search>
  );
}
