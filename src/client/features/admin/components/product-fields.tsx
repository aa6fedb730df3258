import type { Path, UseFormRegisterReturn, UseFormSetError } from "react-hook-form";
import { toast } from "sonner";
import type { z } from "zod";
import { productFieldsSchema } from "../../../../shared/catalog.js";
import { CATEGORIES, CATEGORY_LABELS } from "../../../../shared/constants.js";
import { adminMessages } from "../../../../shared/messages/admin.js";
import { catalogCsvMessages } from "../../../../shared/messages/catalog-csv.js";
import { checkTiersBelowPrice, MAX_PRICE_TIERS } from "../../../../shared/pricing.js";
import { SelectField } from "../../../components/select-field.js";
import { TextField } from "../../../components/text-field.js";
import { TextareaField } from "../../../components/textarea-field.js";
import { WholeNumberField } from "../../../components/whole-number-field.js";
import { ApiError } from "../../../lib/api.js";
import { problemMessage, showServerError } from "../../../lib/form-errors.js";

const text = adminMessages.products;

// The fields Add Product and a product card's Edit share, so both offer the bounds of the server's
// product schema (a whole price of at least 1, a whole stock of 0 or more).

/**
 * Every field of a product; the image is a file until it is uploaded, then its URL joins them. The
 * volume prices are checked against the price as the server checks them.
 */
export const productFormSchema = productFieldsSchema.omit({ image: true }).superRefine(checkTiersBelowPrice);
export type ProductFormInput = z.input<typeof productFormSchema>;
const FIELDS: readonly Path<ProductFormInput>[] = [
  "name",
  "sku",
  "category",
  "price",
  "quantity",
  "description",
  "priceTiers",
  // The server names a tier's field by its place: "priceTiers.1.price".
  ...Array.from(
    { length: MAX_PRICE_TIERS },
    (_, i) => [`priceTiers.${i}.min`, `priceTiers.${i}.price`] as const,
  ).flat(),
];

/**
 * A rejected save of either form: a toast, the image's problem under the image field (the image is
 * not one of the form's fields), and the other field errors under their fields (or above the form).
 */
export function showProductSaveError(
  error: unknown,
  setImageError: (message: string) => void,
  setError: UseFormSetError<ProductFormInput>,
): void {
  toast.error(problemMessage(error));
  const imageProblem = error instanceof ApiError ? error.errors.find((e) => e.path === "image") : undefined;
  if (imageProblem) setImageError(imageProblem.message);
  showServerError(error, FIELDS, setError);
}

/** A field's register() result and its validation message. */
type Props = UseFormRegisterReturn & { error: string | undefined };

export function PriceField({ error, ...registration }: Props) {
  return <WholeNumberField label={text.price} min={1} error={error} {...registration} />;
}

export function StockField({ error, ...registration }: Props) {
  return <WholeNumberField label={text.quantity} min={0} error={error} {...registration} />;
}

export function DescriptionField({ error, ...registration }: Props) {
  return <TextareaField label={text.description} rows={4} error={error} {...registration} />;
}

export function NameField({ error, ...registration }: Props) {
  return <TextField label={text.name} autoComplete="off" error={error} {...registration} />;
}

/** The product's SKU: optional on Add Product (the shop makes one), unique; `editing`: a card's Edit. */
export function SkuField({ error, editing = false, ...registration }: Props & { editing?: boolean }) {
  return (
    <TextField
      label={catalogCsvMessages.sku}
      hint={editing ? catalogCsvMessages.skuEditHint : catalogCsvMessages.skuHint}
      autoComplete="off"
      error={error}
      {...registration}
    />
  );
}

/** The categories, with a disabled "Choose a category" first while none is chosen (Add Product). */
export function CategoryField({ error, ...registration }: Props & { defaultValue?: string }) {
  return (
    <SelectField label={text.category} error={error} {...registration}>
      <option value="" disabled>
        {text.chooseCategory}
      </option>
      {CATEGORIES.map((category) => (
        <option key={category} value={category}>
          {CATEGORY_LABELS[category]}
        </option>
      ))}
    </SelectField>
  );
}
