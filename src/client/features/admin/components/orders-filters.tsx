import { useCallback, useEffect, useId } from "react";
import { adminMessages } from "../../../../shared/messages/admin.js";
import { orderMessages } from "../../../../shared/messages/orders.js";
import {
  isSearchableTerm,
  ORDER_SEARCH_MAX_LENGTH,
  ORDER_SEARCH_MIN_RUN,
  ORDER_STATUSES,
} from "../../../../shared/orders.js";
import { Icon } from "../../../components/icon.js";
import { SearchBox } from "../../../components/search-box.js";
import { isFiltered, NO_FILTER, type OrdersFilter } from "../hooks/use-orders-filter.js";

const text = adminMessages.orders;

type Props = {
  filter: OrdersFilter;
  onChange: (change: Partial<OrdersFilter>) => void;
};

/** Whether the search box holds a search the server cannot look up (the page then shows no list). */
type Refusal = { refused: boolean; onRefused: (refused: boolean) => void };

function StatusChips({ value, onChange }: { value: OrdersFilter["status"]; onChange: Props["onChange"] }) {
  return (
    <fieldset>
      <legend className="mb-1 block text-sm font-medium">{text.status}</legend>
      <div className="flex flex-wrap gap-2">
        {ORDER_STATUSES.map((status) => {
          const on = value.includes(status);
          return (
            <button
              key={status}
              type="button"
              aria-pressed={on}
              className={`btn btn-sm rounded-full ${on ? "btn-primary" : "btn-outline border-base-content/25"}`}
              onClick={() =>
                onChange({ status: on ? value.filter((s) => s !== status) : [...value, status] })
              }
            >
              {on ? (
                <Icon path="M5 12.5l4.5 4.5L19 7.5" className="size-4 fill-none stroke-current stroke-3" />
              ) : null}
              {text.statuses[status]}
            </button>
          );
        })}
      </div>
    </fieldset>
  );
}

/** The date range: whole days in the admin's time zone, both included. */
function DateRange({ filter, onChange }: Props) {
  const id = useId();
  const reversed = Boolean(filter.from && filter.to && filter.from > filter.to);
  const field = (key: "from" | "to", label: string) => (
    <div>
      <label htmlFor={`${id}-${key}`} className="mb-1 block text-sm font-medium">
        {label}
      </label>
      <input
        id={`${id}-${key}`}
        type="date"
        value={filter[key]}
        min={key === "to" ? filter.from || undefined : undefined}
        max={key === "from" ? filter.to || undefined : undefined}
        aria-invalid={reversed}
        aria-describedby={reversed ? `${id}-error` : undefined}
        // An unfinished date reads as "": the filter changes once a whole date is there, or none.
        onChange={(event) => onChange({ [key]: event.target.value })}
        className={`input w-full sm:w-44 ${reversed ? "input-error" : ""}`}
      />
    </div>
  );
  return (
    <div>
      <div className="flex flex-wrap gap-3">
        {field("from", text.from)}
        {field("to", text.to)}
      </div>
      {reversed ? (
        <p id={`${id}-error`} className="mt-1 text-sm text-error">
          {orderMessages.list.rangeReversed}
        </p>
      ) : null}
    </div>
  );
}

/**
 * The search box, which asks the server only for what it can look up (src/shared/orders.ts
 * isSearchableTerm): a shorter term stays in the box, an alert under the box says what the search
 * needs, and the page shows no list until the search is one it can look up (issue 31: the old
 * results stayed under the alert, as if they matched it).
 */
function OrderSearch({
  value,
  onChange,
  refused,
  onRefused,
}: { value: string; onChange: Props["onChange"] } & Refusal) {
  // Stable, so a render of the page does not restart the search box's pause.
  const onSearch = useCallback(
    (search: string) => {
      const searchable = isSearchableTerm(search);
      onRefused(!searchable);
      if (searchable) onChange({ search });
    },
    [onChange, onRefused],
  );
  // A search from outside (the back button, a link, Clear filters) replaces a refused one.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the list's search changes
  useEffect(() => onRefused(false), [value, onRefused]);
  return (
    <div className="w-full sm:max-w-md">
      <SearchBox
        label={text.search}
        hint={text.searchHint(ORDER_SEARCH_MIN_RUN)}
        placeholder={text.searchPlaceholder}
        maxLength={ORDER_SEARCH_MAX_LENGTH}
        value={value}
        onSearch={onSearch}
      />
      <p role="alert" className="mt-1 text-sm text-error empty:hidden">
        {refused ? orderMessages.list.searchTooShort(ORDER_SEARCH_MIN_RUN) : ""}
      </p>
    </div>
  );
}

/** Manage Orders' filters: search, status chips, a date range, and Clear filters. */
export function OrdersFilters({ filter, onChange, refused, onRefused }: Props & Refusal) {
  return (
    <section
      aria-label={text.filters}
      className="flex flex-col gap-4 rounded-box border border-base-content/10 bg-base-200 p-4 xl:flex-row xl:flex-wrap xl:items-start"
    >
      <OrderSearch value={filter.search} onChange={onChange} refused={refused} onRefused={onRefused} />
      <StatusChips value={filter.status} onChange={onChange} />
      <DateRange filter={filter} onChange={onChange} />
      {isFiltered(filter) ? (
        <button
          type="button"
          className="btn btn-ghost btn-sm self-start xl:mt-6"
          onClick={() => onChange(NO_FILTER)}
        >
          {text.clear}
        </button>
      ) : null}
    </section>
  );
}
