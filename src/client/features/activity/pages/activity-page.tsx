import { type FormEvent, useId, useMemo } from "react";
import { Link, useSearchParams } from "react-router";
import {
  ACTIVITY_ACTIONS,
  ACTIVITY_TARGET_TYPES,
  type ActivityEntryView,
  type ActivityTargetType,
} from "../../../../shared/activity.js";
import { orderNumber } from "../../../../shared/format.js";
import { activityMessages as t } from "../../../../shared/messages/activity.js";
import { AdminLoadError } from "../../../components/admin-only.js";
import { AdminPage } from "../../../components/admin-page.js";
import { LoadingState } from "../../../components/loading-state.js";
import { PagedTable } from "../../../components/paged-table.js";
import { SelectField } from "../../../components/select-field.js";
import { TextField } from "../../../components/text-field.js";
import { ApiError } from "../../../lib/api.js";
import { isDay, midnight } from "../../../lib/days.js";
import { problemMessage } from "../../../lib/form-errors.js";
import { formatCount, formatUtc } from "../../../lib/format.js";
import { paths } from "../../../lib/paths.js";
import { useActivity } from "../api/get-activity.js";

/** The filter's fields, as the page's URL keeps them (days are calendar days of the admin's zone). */
const FIELDS = ["actor", "action", "targetType", "targetId", "from", "to"] as const;
type Field = (typeof FIELDS)[number];
type Filter = Record<Field, string>;

function readFilter(params: URLSearchParams): Filter {
  const value = (name: string) => (params.get(name) ?? "").trim().slice(0, 254);
  const day = (name: string) => {
    const text = params.get(name);
    return isDay(text) ? text : "";
  };
  return {
    actor: value("actor"),
    action: value("action"),
    targetType: value("targetType"),
    targetId: value("targetId"),
    from: day("from"),
    to: day("to"),
  };
}

/** The API's query: the days become instants, from the first day's midnight to the one after the last. */
function apiQuery(filter: Filter): URLSearchParams {
  const query = new URLSearchParams();
  for (const field of FIELDS) if (filter[field]) query.set(field, filter[field]);
  if (filter.from) query.set("from", midnight(filter.from).toISOString());
  if (filter.to) query.set("to", midnight(filter.to, 1).toISOString());
  return query;
}

const when = (iso: string) => formatUtc(iso, { seconds: true });

function shown(value: unknown): string {
  if (value === null || value === undefined || value === "") return t.none;
  if (typeof value === "number") return formatCount(value);
  return typeof value === "string" ? value : JSON.stringify(value);
}

/**
 * Where the target's own page is: Manage Orders found by number, a user by email, a product's
 * stock, moderation, a discount code's page.
 */
function targetLink(type: ActivityTargetType, id: string, name: string | null): string | null {
  if (type === "order")
    return `${paths.dashboard.manageOrders}?${new URLSearchParams({ search: orderNumber(id) })}`;
  if (type === "user" && name) return `${paths.dashboard.users}?${new URLSearchParams({ search: name })}`;
  if (type === "product" && name) return paths.dashboard.stock(id);
  if (type === "review") return paths.dashboard.reviewModeration;
  if (type === "discount_code") return paths.dashboard.discountCode(id);
  return null;
}

function Target({ entry }: { entry: ActivityEntryView }) {
  const { targetType: type, targetId: id, targetName: name } = entry;
  if (!type) return <>{t.none}</>;
  if (!id) return <>{t.targets[type]}</>;
  const named =
    type === "order"
      ? orderNumber(id)
      : type === "user" || type === "product" || type === "discount_code"
        ? (name ?? `${id.slice(0, 8)}… ${t.removedTarget}`)
        : id.slice(0, 8);
  const label = `${t.targets[type]} ${named}`;
  const to = targetLink(type, id, name);
  return to ? (
    <Link className="link" to={to}>
      {label}
    </Link>
  ) : (
    label
  );
}

function Changes({ changes }: { changes: ActivityEntryView["changes"] }) {
  const fields = Object.entries(changes);
  if (fields.length === 0) return <>{t.none}</>;
  return (
    <ul className="flex flex-col gap-0.5">
      {fields.map(([field, [before, after]]) => (
        <li key={field} className="break-words">
          {t.change(field, shown(before), shown(after))}
        </li>
      ))}
    </ul>
  );
}

/** A field of the filter form: its name, its label (the field's own text), the filter's value for it. */
type FieldProps = { name: Field; label: string; defaultValue: string };

type ChoiceProps<Choice extends string> = FieldProps & {
  /** The first option, empty: the filter leaves this field out. */
  any: string;
  choices: readonly Choice[];
  labels: Record<Choice, string>;
};

/** A filter field with a fixed set of values: "any" first, then each value by its label. */
function ChoiceField<Choice extends string>({ any, choices, labels, ...field }: ChoiceProps<Choice>) {
  return (
    <SelectField {...field}>
      <option value="">{any}</option>
      {choices.map((choice) => (
        <option key={choice} value={choice}>
          {labels[choice]}
        </option>
      ))}
    </SelectField>
  );
}

function Filters({ filter, onApply }: { filter: Filter; onApply: (filter: Filter) => void }) {
  const id = useId();
  const field = (name: Field): FieldProps => ({ name, label: t[name], defaultValue: filter[name] });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    onApply(Object.fromEntries(FIELDS.map((name) => [name, String(data.get(name) ?? "").trim()])) as Filter);
  };
  return (
    <form
      aria-label={t.filters}
      onSubmit={submit}
      // A new filter from outside (a link, the back button) resets the fields.
      key={JSON.stringify(filter)}
      className="mb-6 grid gap-3 rounded-box border border-base-content/10 bg-base-200 p-4 sm:grid-cols-2 xl:grid-cols-3"
    >
      <TextField {...field("actor")} type="email" autoComplete="off" />
      <ChoiceField {...field("action")} any={t.anyAction} choices={ACTIVITY_ACTIONS} labels={t.actions} />
      <div className="grid grid-cols-2 gap-3">
        <ChoiceField
          {...field("targetType")}
          any={t.anyTarget}
          choices={ACTIVITY_TARGET_TYPES}
          labels={t.targets}
        />
        <TextField {...field("targetId")} autoComplete="off" />
      </div>
      <div className="grid grid-cols-2 gap-3">
        <div>
          <label htmlFor={`${id}-from`} className="mb-1 block text-sm font-medium">
            {t.from}
          </label>
          <input
            id={`${id}-from`}
            name="from"
            type="date"
            defaultValue={filter.from}
            className="input w-full"
          />
        </div>
        <div>
          <label htmlFor={`${id}-to`} className="mb-1 block text-sm font-medium">
            {t.to}
          </label>
          <input id={`${id}-to`} name="to" type="date" defaultValue={filter.to} className="input w-full" />
        </div>
      </div>
      <div className="flex items-end gap-2">
        <button type="submit" className="btn btn-primary">
          {t.apply}
        </button>
        <button
          type="button"
          className="btn btn-ghost"
          onClick={() => onApply(readFilter(new URLSearchParams()))}
        >
          {t.clear}
        </button>
      </div>
    </form>
  );
}

/** A filter the server refuses (400) says why, field by field; other failures are an admin page's. */
function EntriesError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  if (!(error instanceof ApiError && error.status === 400))
    return <AdminLoadError error={error} onRetry={onRetry} />;
  return (
    <p role="alert" className="alert alert-error alert-soft">
      {error.errors.length > 0 ? error.errors.map((e) => e.message).join(" ") : problemMessage(error)}
    </p>
  );
}

function Entries({ query }: { query: URLSearchParams }) {
  const activity = useActivity(query);
  if (!activity.isSuccess) return <LoadingState query={activity} failure={EntriesError} />;
  const total = activity.data.pages[0]?.total;
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p aria-live="polite" className="text-base-content/80">
          {total ? (total.exact ? t.count(total.count) : t.countMore(total.count)) : null}
        </p>
        <a className="btn btn-sm btn-outline" href={`/api/admin/activity.csv?${query}`} download>
          {t.download}
        </a>
      </div>
      <PagedTable
        pages={activity}
        caption={t.caption}
        captionId="activity-caption"
        columns={[t.when, t.who, t.what, t.target, t.changes, t.from_]}
        empty={t.empty}
        more={t.more}
      >
        {(entry) => (
          <tr key={entry.id} className="align-top">
            <td className="whitespace-nowrap tabular-nums">{when(entry.at)}</td>
            <td className="break-all">{entry.actorEmail ?? t.nobody}</td>
            <td className="whitespace-nowrap">{t.actions[entry.action]}</td>
            <td>
              <Target entry={entry} />
            </td>
            <td className="max-w-sm text-sm">
              <Changes changes={entry.changes} />
            </td>
            <td className="text-sm">
              {entry.address ?? t.none}
              {entry.requestId ? (
                <span className="block text-xs text-base-content/75">{t.request(entry.requestId)}</span>
              ) : null}
            </td>
          </tr>
        )}
      </PagedTable>
    </div>
  );
}

/** /dashboard/activity (admin): the activity log, newest first, filtered, and its CSV. */
export function ActivityPage() {
  const [params, setParams] = useSearchParams();
  const filter = useMemo(() => readFilter(params), [params]);
  const query = useMemo(() => apiQuery(filter), [filter]);
  const apply = (next: Filter) => {
    const url = new URLSearchParams();
    for (const field of FIELDS) if (next[field]) url.set(field, next[field]);
    setParams(url);
  };
  return (
    <AdminPage title={t.heading} lead={t.lead}>
      <Filters filter={filter} onApply={apply} />
      <Entries query={query} />
    </AdminPage>
  );
}
