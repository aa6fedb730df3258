import type { UseFormRegisterReturn } from "react-hook-form";
import { adminMessages } from "../../../../shared/messages/admin.js";
import { TextareaField } from "../../../components/textarea-field.js";
import { WholeNumberField } from "../../../components/whole-number-field.js";

const text = adminMessages.products;

// The fields Add Product and a product card's Edit share, so both offer the bounds of the server's
// product schema (a whole price of at least 1, a whole stock of 0 or more).

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
