import { useId, useState } from "react";
import { toast } from "sonner";
import { CATEGORIES, CATEGORY_LABELS } from "../../../../shared/constants.js";
import {
  type DiscountCodeForm,
  discountCodeFormSchema,
  discountCodeInputOf,
} from "../../../../shared/discounts.js";
import { discountMessages } from "../../../../shared/messages/discounts.js";
import { FormCard } from "../../../components/form-card.js";
import { SelectField } from "../../../components/select-field.js";
import { SubmitButton } from "../../../components/submit-button.js";
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
  const { register, handleSubmit, setError, setValue, reset, watch, formState } = form;
  const { errors } = formState;
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
  const onSubmit = handleSubmit((values) =>
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
      onSubmit={onSubmit}
      serverError={errors.root?.server}
      actions={
        <SubmitButton pending={create.isPending} className="sm:self-start">
          {t.create}
        </SubmitButton>
      }
    >
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField
          label={t.code}
          hint={t.codeHint}
          autoComplete="off"
          autoCapitalize="characters"
          maxLength={32}
          error={errors.code?.message}
          {...register("code")}
        />
        <SelectField label={t.kind} error={errors.kind?.message} {...register("kind")}>
          <option value="percent">{t.percent}</option>
          <option value="amount">{t.amount}</option>
        </SelectField>
        <TextField
          label={kind === "amount" ? t.amountValue : t.percentValue}
          inputMode="decimal"
          autoComplete="off"
          error={errors.value?.message}
          {...register("value")}
        />
        <WholeNumberField
          label={t.minQuantity}
          min={1}
          error={errors.minQuantity?.message}
          {...register("minQuantity")}
        />
        <TextField
          label={t.startsAt}
          type="datetime-local"
          hint={t.startsAtHint}
          error={errors.startsAt?.message}
          {...register("startsAt")}
        />
        <TextField
          label={t.endsAt}
          type="datetime-local"
          hint={t.endsAtHint}
          error={errors.endsAt?.message}
          {...register("endsAt")}
        />
        <WholeNumberField
          label={t.maxUses}
          min={1}
          hint={t.usesHint}
          error={errors.maxUses?.message}
          {...register("maxUses")}
        />
        <WholeNumberField
          label={t.maxUsesPerCustomer}
          min={1}
          hint={t.usesHint}
          error={errors.maxUsesPerCustomer?.message}
          {...register("maxUsesPerCustomer")}
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
