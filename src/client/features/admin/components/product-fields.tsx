import type { UseFormRegisterReturn } from "react-hook-form";
import { adminMessages } from "../../../../shared/messages/admin.js";
import { TextField } from "../../../components/text-field.js";
import { TextareaField } from "../../../components/textarea-field.js";

const text = adminMessages.products;

// The fields Add Product and a product card's Edit share, so both offer the bounds of the server's
// product schema (a whole price of at least 1, a whole stock of 0 or more).

/** A field's register() result and its validation message. */
type Props = UseFormRegisterReturn & { error: string | undefined };

export function PriceField({ error, ...registration }: Props) {
  return (
    <TextField
      label={text.price}
      type="number"
      inputMode="numeric"
      min={1}
      step={1}
      error={error}
      {...registration}
    />
  );
}

export function StockField({ error, ...registration }: Props) {
  return (
    <TextField
      label={text.quantity}
      type="number"
      inputMode="numeric"
      min={0}
      step={1}
      error={error}
      {...registration}
    />
  );
}

export function DescriptionField({ error, ...registration }: Props) {
  return <TextareaField label={text.description} rows={4} error={error} {...registration} />;
}
