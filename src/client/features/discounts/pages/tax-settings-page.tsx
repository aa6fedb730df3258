import { useId } from "react";
import { toast } from "sonner";
import {
  percentTextOf,
  type TaxSettings,
  type TaxSettingsForm,
  taxSettingsFormSchema,
} from "../../../../shared/discounts.js";
import { discountMessages } from "../../../../shared/messages/discounts.js";
import { AdminLoadError } from "../../../components/admin-only.js";
import { AdminPage } from "../../../components/admin-page.js";
import { DecimalField } from "../../../components/decimal-field.js";
import { bindFields, bindSubmit } from "../../../components/form-bindings.js";
import { FormCard } from "../../../components/form-card.js";
import { LoadingState } from "../../../components/loading-state.js";
import { SubmitRow } from "../../../components/submit-row.js";
import { TextField } from "../../../components/text-field.js";
import { showServerError } from "../../../lib/form-errors.js";
import { formatUtc } from "../../../lib/format.js";
import { useSchemaForm } from "../../../lib/use-schema-form.js";
import { useSaveTaxSettings, useTaxSettings } from "../api/tax.js";

const t = discountMessages.tax;

function TaxForm({ saved }: { saved: TaxSettings }) {
  const save = useSaveTaxSettings();
  const switchId = useId();
  const form = useSchemaForm(taxSettingsFormSchema, {
    defaultValues: {
      ratePercent: percentTextOf(saved.taxRateBp),
      pricesIncludeTax: saved.pricesIncludeTax,
      taxId: saved.taxId,
    } satisfies TaxSettingsForm,
  });
  const { register, setError, reset } = form;
  const field = bindFields(form);
  const submit = bindSubmit(form, (values) =>
    save.mutateAsync({ ...values, ratePercent: Number(values.ratePercent) }).then(
      (now) => {
        toast.success(t.saved);
        reset({
          ratePercent: percentTextOf(now.taxRateBp),
          pricesIncludeTax: now.pricesIncludeTax,
          taxId: now.taxId,
        });
      },
      (error: unknown) => showServerError(error, ["ratePercent", "pricesIncludeTax", "taxId"], setError),
    ),
  );
  return (
    <FormCard
      title={t.title}
      lead={t.formLead}
      {...submit}
      actions={
        <SubmitRow label={t.save} pending={save.isPending} note={t.updatedAt(formatUtc(saved.updatedAt))} />
      }
    >
      <div className="grid gap-5 sm:grid-cols-2">
        <DecimalField label={t.rate} hint={t.rateHint} {...field("ratePercent")} />
        <TextField label={t.taxId} hint={t.taxIdHint} autoComplete="off" maxLength={32} {...field("taxId")} />
      </div>
      <div className="flex flex-col gap-1">
        <div className="flex items-center gap-3">
          <input
            id={switchId}
            type="checkbox"
            className="toggle toggle-primary"
            aria-describedby={`${switchId}-hint`}
            {...register("pricesIncludeTax")}
          />
          <label htmlFor={switchId} className="cursor-pointer font-medium">
            {t.pricesIncludeTax}
          </label>
        </div>
        <p id={`${switchId}-hint`} className="text-xs text-base-content/75">
          {t.pricesIncludeTaxHint}
        </p>
      </div>
    </FormCard>
  );
}

function TaxPanel() {
  const settings = useTaxSettings();
  if (!settings.isSuccess) return <LoadingState query={settings} failure={AdminLoadError} />;
  return <TaxForm saved={settings.data} />;
}

/** /dashboard/tax (admin): the one tax rate, whether prices include it, and the shop's tax ID. */
export function TaxSettingsPage() {
  return (
    <AdminPage title={t.heading} lead={t.lead}>
      <TaxPanel />
    </AdminPage>
  );
}
