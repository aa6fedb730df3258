import { useId, useRef } from "react";
import { type Control, type FieldErrors, type UseFormRegister, useFieldArray } from "react-hook-form";
import { MIN_ORDER_QUANTITY } from "../../../../shared/constants.js";
import { adminMessages } from "../../../../shared/messages/admin.js";
import { MAX_PRICE_TIERS } from "../../../../shared/pricing.js";
import { WholeNumberField } from "../../../components/whole-number-field.js";
import type { ProductFormInput } from "./product-fields.js";

const text = adminMessages.products.tiers;

type Props = {
  control: Control<ProductFormInput>;
  register: UseFormRegister<ProductFormInput>;
  errors: FieldErrors<ProductFormInput>;
};

/** The list's own message (too many, not a list): on the list itself, not one of its tiers. */
function listError(errors: FieldErrors<ProductFormInput>): string | undefined {
  const list = errors.priceTiers;
  return list?.message ?? list?.root?.message;
}

/**
 * A product's volume prices (issue 33): rows of "from units" and "unit price", added and removed
 * in place, each row a group named by its number so its two fields and its Remove button read
 * apart. Adding a row moves focus to its first field; removing one moves it to "Add a volume
 * price", so a keyboard user is never left on a button that is gone. The form's schema checks the
 * rows (src/shared/pricing.ts) and the server's refusals land on the same fields.
 */
export function PriceTiersField({ control, register, errors }: Props) {
  const { fields, append, remove } = useFieldArray({ control, name: "priceTiers" });
  const addButton = useRef<HTMLButtonElement>(null);
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const error = listError(errors);
  const full = fields.length >= MAX_PRICE_TIERS;
  return (
    <fieldset className="flex flex-col gap-3" aria-describedby={error ? `${errorId} ${hintId}` : hintId}>
      <legend className="mb-1.5 text-sm font-medium">{text.legend}</legend>
      <p id={hintId} className="text-xs text-base-content/75">
        {text.hint(MIN_ORDER_QUANTITY)}
      </p>
      {fields.length === 0 ? <p className="text-sm text-base-content/80">{text.none}</p> : null}
      <ol className="flex flex-col gap-3 empty:hidden">
        {fields.map((field, i) => {
          const rowErrors = errors.priceTiers?.[i];
          return (
            <li key={field.id}>
              <fieldset className="grid grid-cols-2 items-start gap-3 rounded-box border border-base-content/10 p-3 sm:grid-cols-[1fr_1fr_auto]">
                <legend className="px-1 text-xs font-semibold text-base-content/80">
                  {text.tier(i + 1)}
                </legend>
                <WholeNumberField
                  label={text.min}
                  min={MIN_ORDER_QUANTITY}
                  error={rowErrors?.min?.message}
                  {...register(`priceTiers.${i}.min`, { valueAsNumber: true })}
                />
                <WholeNumberField
                  label={text.price}
                  min={1}
                  error={rowErrors?.price?.message}
                  {...register(`priceTiers.${i}.price`, { valueAsNumber: true })}
                />
                <button
                  type="button"
                  className="btn btn-sm btn-ghost col-span-2 justify-self-start text-error sm:col-span-1 sm:mt-7"
                  aria-label={text.removeTier(i + 1)}
                  onClick={() => {
                    remove(i);
                    addButton.current?.focus();
                  }}
                >
                  {text.remove}
                </button>
              </fieldset>
            </li>
          );
        })}
      </ol>
      {error ? (
        <p id={errorId} className="text-sm text-error">
          {error}
        </p>
      ) : null}
      <div className="flex flex-wrap items-center gap-3">
        <button
          ref={addButton}
          type="button"
          className="btn btn-sm btn-outline"
          aria-disabled={full || undefined}
          onClick={() => {
            if (full) return;
            // A new row starts empty; focus goes to its first field (react-hook-form's shouldFocus).
            append({ min: Number.NaN, price: Number.NaN }, { shouldFocus: true });
          }}
        >
          {text.add}
        </button>
        {full ? <span className="text-sm text-base-content/80">{text.full(MAX_PRICE_TIERS)}</span> : null}
      </div>
    </fieldset>
  );
}
