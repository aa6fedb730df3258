import { useId, useState } from "react";
import { toast } from "sonner";
import { CATEGORIES, CATEGORY_LABELS } from "../../../../shared/constants.js";
import {
  type DiscountCodeForm,
  discountCodeFormSchema,
  discountCodeInputOf,
} from "../../../../shared/discounts.js";
import { discountMessages } from "../../../../shared/messages/discounts.js";
import { DecimalField } from "../../../components/decimal-field.js";
import { bindFields, bindSubmit } from "../../../components/form-bindings.js";
import { FormCard } from "../../../components/form-card.js";
import { SelectField } from "../../../components/select-field.js";
import { SubmitRow } from "../../../components/submit-row.js";
import { TextField } from "../../../components/text-field.js";
import { WholeNumberField } from "../../../components/whole-number-field.js";
import { showServerError } from "../../../lib/form-errors.js";
import { useSchemaForm } from "../../../lib/use-schema-form.js";
import { useCreateDiscountCode } from "../api/codes.js";
import { type ChosenProduct, ProductPicker } from "./product-picker.js";

const t = discountMessages.form;

const EMPTY: DiscountCodeForm = {
  code: "",
  kind: "percent",
  value: "",
  startsAt: "",
  endsAt: "",
  minQuantity: "",
  productIds: [],
  categories: [],
  maxUses: "",
  maxUsesPerCustomer: "",
};

const FIELDS = [
  "code",
  "kind",
  "value",
  "startsAt",
  "endsAt",
  "minQuantity",
  "productIds",
  "categories",
  "maxUses",
  "maxUsesPerCustomer",
] as const;

/** The form that makes a code: what it gives, when, for what, and how often. */
export function CodeForm() {
  const create = useCreateDiscountCode();
  const form = useSchemaForm(discountCodeFormSchema, { defaultValues: EMPTY });
  const { register, setError, setValue, reset, watch, formState } = form;
  const { errors } = formState;
  const field = bindFields(form);
  const [chosen, setChosen] = useState<ChosenProduct[]>([]);
  // Made anew after each code, so its search starts empty too.
  const [made, setMade] = useState(0);
  const categoriesId = useId();
  const kind = watch("kind");

  const choose = (products: ChosenProduct[]) => {
    setChosen(products);
    setValue(
      "productIds",
      products.map((p) => p.id),
      { shouldValidate: formState.isSubmitted },
    );
  };

  // A promise, not mutate's callbacks: the field errors are set while the form is still there.
  const submit = bindSubmit(form, (values) =>
    create.mutateAsync(discountCodeInputOf(values)).then(
      (made) => {
        toast.success(t.created(made.code));
        reset(EMPTY);
        setChosen([]);
        setMade((n) => n + 1);
      },
      (error: unknown) => showServerError(error, FIELDS, setError),
    ),
  );

  return (
    <FormCard
      title={t.title}
      lead={t.lead}
      {...submit}
      actions={<SubmitRow label={t.create} pending={create.isPending} buttonClass="w-full sm:w-auto" />}
    >
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField
          label={t.code}
          hint={t.codeHint}
          autoComplete="off"
          autoCapitalize="characters"
          maxLength={32}
          {...field("code")}
        />
        <SelectField label={t.kind} {...field("kind")}>
          <option value="percent">{t.percent}</option>
          <option value="amount">{t.amount}</option>
        </SelectField>
        <DecimalField label={kind === "amount" ? t.amountValue : t.percentValue} {...field("value")} />
        <WholeNumberField label={t.minQuantity} min={1} {...field("minQuantity")} />
        <TextField label={t.startsAt} type="datetime-local" hint={t.startsAtHint} {...field("startsAt")} />
        <TextField label={t.endsAt} type="datetime-local" hint={t.endsAtHint} {...field("endsAt")} />
        <WholeNumberField label={t.maxUses} min={1} hint={t.usesHint} {...field("maxUses")} />
        <WholeNumberField
          label={t.maxUsesPerCustomer}
          min={1}
          hint={t.usesHint}
          {...field("maxUsesPerCustomer")}
        />
      </div>
      <fieldset aria-describedby={errors.categories ? `${categoriesId}-error` : undefined}>
        <legend className="mb-2 text-sm font-medium">{t.categories}</legend>
        <div className="flex flex-wrap gap-x-6 gap-y-2">
          {CATEGORIES.map((category) => (
            <label key={category} className="flex cursor-pointer items-center gap-2">
              <input type="checkbox" className="checkbox" value={category} {...register("categories")} />
              {CATEGORY_LABELS[category]}
            </label>
          ))}
        </div>
        {errors.categories ? (
          <p id={`${categoriesId}-error`} className="mt-1 text-sm text-error">
            {errors.categories.message}
          </p>
        ) : null}
      </fieldset>
      <ProductPicker key={made} chosen={chosen} onChange={choose} error={errors.productIds?.message} />
    </FormCard>
  );
}
