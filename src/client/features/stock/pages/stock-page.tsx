import { Link, useParams } from "react-router";
import { toast } from "sonner";
import { activityMessages } from "../../../../shared/messages/activity.js";
import { stockMessages } from "../../../../shared/messages/stock.js";
import {
  adjustmentOf,
  type StockAdjustmentForm,
  stockAdjustmentFormSchema,
  type ThresholdForm,
  thresholdFormSchema,
} from "../../../../shared/stock.js";
import { AdminPage } from "../../../components/admin-page.js";
import { CardSection } from "../../../components/card-section.js";
import { FormCard } from "../../../components/form-card.js";
import { LoadingState } from "../../../components/loading-state.js";
import { PagedTable } from "../../../components/paged-table.js";
import { SelectField } from "../../../components/select-field.js";
import { SubmitButton } from "../../../components/submit-button.js";
import { TextField } from "../../../components/text-field.js";
import { TextareaField } from "../../../components/textarea-field.js";
import { WholeNumberField } from "../../../components/whole-number-field.js";
import { problemMessage, showServerError } from "../../../lib/form-errors.js";
import { formatCount, formatUtc } from "../../../lib/format.js";
import { activityOf } from "../../../lib/paths.js";
import { useSchemaForm } from "../../../lib/use-schema-form.js";
import { useAdjustStock, useSetThreshold } from "../api/adjust-stock.js";
import { useStock } from "../api/get-stock.js";
import { useStockHistory } from "../api/get-stock-history.js";

const t = stockMessages.panel;

const signed = (n: number) => (n > 0 ? `+${formatCount(n)}` : formatCount(n));

function AdjustForm({ id, name }: { id: string; name: string }) {
  const adjust = useAdjustStock(id);
  const form = useSchemaForm(stockAdjustmentFormSchema, {
    defaultValues: { mode: "add", amount: 0, note: "" } satisfies StockAdjustmentForm,
  });
  const { register, handleSubmit, setError, reset, formState } = form;
  const { errors } = formState;
  const onSubmit = handleSubmit((values) =>
    adjust.mutate(
      { id, adjustment: adjustmentOf(values) },
      {
        onSuccess: () => {
          toast.success(t.saved);
          reset();
        },
        onError: (error) => {
          toast.error(problemMessage(error));
          showServerError(error, ["note", "amount"], setError);
        },
      },
    ),
  );
  return (
    <FormCard
      title={t.adjust}
      lead={t.adjustFor(name)}
      onSubmit={onSubmit}
      serverError={errors.root?.server}
      actions={<SubmitButton pending={adjust.isPending}>{t.save}</SubmitButton>}
    >
      <div className="grid gap-3 sm:grid-cols-2">
        <SelectField label={t.mode} error={errors.mode?.message} {...register("mode")}>
          <option value="set">{t.set}</option>
          <option value="add">{t.add}</option>
          <option value="remove">{t.remove}</option>
        </SelectField>
        <WholeNumberField
          label={t.units}
          error={errors.amount?.message}
          {...register("amount", { valueAsNumber: true })}
        />
      </div>
      <TextareaField
        label={t.note}
        placeholder={t.notePlaceholder}
        rows={2}
        error={errors.note?.message}
        {...register("note")}
      />
    </FormCard>
  );
}

function ThresholdFormCard({ id, own, fallback }: { id: string; own: number | null; fallback: number }) {
  const save = useSetThreshold(id);
  const form = useSchemaForm(thresholdFormSchema, {
    defaultValues: { threshold: own === null ? "" : String(own) } satisfies ThresholdForm,
  });
  const { register, handleSubmit, setError, formState } = form;
  const { errors } = formState;
  // A promise, not mutate's callbacks: the saved threshold is this card's key, so the card is
  // made anew as the saved product comes back, and mutate's callbacks die with the old one.
  const onSubmit = handleSubmit(({ threshold }) =>
    save.mutateAsync({ id, input: { threshold: threshold === "" ? null : Number(threshold) } }).then(
      () => toast.success(t.thresholdSaved),
      (error: unknown) => {
        toast.error(problemMessage(error));
        showServerError(error, ["threshold"], setError);
      },
    ),
  );
  return (
    <FormCard
      title={t.threshold}
      lead={t.thresholdHint(fallback)}
      onSubmit={onSubmit}
      serverError={errors.root?.server}
      actions={<SubmitButton pending={save.isPending}>{t.saveThreshold}</SubmitButton>}
    >
      <TextField
        label={t.threshold}
        inputMode="numeric"
        error={errors.threshold?.message}
        {...register("threshold")}
      />
    </FormCard>
  );
}

function History({ id, name }: { id: string; name: string }) {
  const history = useStockHistory(id);
  if (!history.isSuccess) return <LoadingState query={history} />;
  return (
    <CardSection
      id="stock-history"
      title={t.history}
      actions={
        <a
          className="btn btn-sm btn-outline"
          href={`/api/products/${encodeURIComponent(id)}/stock/movements.csv`}
          download
          aria-label={`${t.download}: ${t.historyFor(name)}`}
        >
          {t.download}
        </a>
      }
    >
      <PagedTable
        pages={history}
        caption={t.historyCaption}
        captionId="stock-history-caption"
        columns={[t.when, t.why, t.change, t.before, t.after, t.who, t.noteColumn]}
        empty={t.none}
        more={t.more}
      >
        {(m) => (
          <tr key={m.id}>
            <td className="whitespace-nowrap">{formatUtc(m.at)}</td>
            <td>
              {stockMessages.reasons[m.reason]}
              {m.orderId ? (
                <span className="block text-xs text-base-content/75">
                  {t.order(`#${m.orderId.slice(0, 8).toUpperCase()}`)}
                </span>
              ) : null}
            </td>
            <td className="tabular-nums">{signed(m.change)}</td>
            <td className="tabular-nums">{formatCount(m.before)}</td>
            <td className="tabular-nums">{formatCount(m.after)}</td>
            <td>{m.adminName ?? (m.adminId ? stockMessages.removedAdmin : stockMessages.shop)}</td>
            <td className="max-w-xs break-words">{m.note}</td>
          </tr>
        )}
      </PagedTable>
    </CardSection>
  );
}

function StockPanel({ id }: { id: string }) {
  const stock = useStock(id);
  if (!stock.isSuccess) return <LoadingState query={stock} />;
  const s = stock.data;
  const low = s.quantity < s.threshold;
  return (
    <div className="flex flex-col gap-8">
      <CardSection id="stock-now" title={s.name} spacing="close">
        <p className="flex flex-wrap items-center gap-3 text-lg">
          <span className="font-bold">{t.inStock(s.quantity)}</span>
          {low ? (
            <span className="badge badge-error badge-soft">{stockMessages.lowBadge(s.threshold)}</span>
          ) : null}
        </p>
        <Link className="link self-start" to={activityOf("product", id)}>
          {activityMessages.ofProduct}
        </Link>
      </CardSection>
      <div className="grid gap-6 lg:grid-cols-2">
        <AdjustForm id={id} name={s.name} />
        <ThresholdFormCard
          key={String(s.lowStockThreshold)}
          id={id}
          own={s.lowStockThreshold}
          fallback={s.defaultThreshold}
        />
      </div>
      <History id={id} name={s.name} />
    </div>
  );
}

/** /dashboard/stock/:id (admin): a product's stock, its adjustments, threshold and history. */
export function StockPage() {
  const { id = "" } = useParams();
  return (
    <AdminPage title={t.heading} lead={stockMessages.lead}>
      <StockPanel id={id} />
    </AdminPage>
  );
}
