import { useEffect, useId, useState } from "react";
import { discountMessages } from "../../../../shared/messages/discounts.js";
import { FieldFrame } from "../../../components/field-frame.js";
import { useProductSearch } from "../api/product-search.js";

const t = discountMessages.form;
const DEBOUNCE_MS = 300;

export type ChosenProduct = { id: string; name: string };

/** A found product's button adds it, a chosen one's removes it; its aria-label names the product. */
const ROW_BUTTONS = {
  add: { text: t.add, label: t.addProduct, className: "btn btn-sm btn-outline" },
  remove: { text: t.remove, label: t.removeProduct, className: "btn btn-sm btn-ghost" },
};

type RowProps = { name: string; button: keyof typeof ROW_BUTTONS; onPress(): void };

/** A product found or chosen: its name, and the button that adds or removes it. */
function ProductRow({ name, button, onPress }: RowProps) {
  const { text, label, className } = ROW_BUTTONS[button];
  return (
    <li className="flex items-center justify-between gap-3">
      <span className="min-w-0 break-words">{name}</span>
      <button type="button" className={className} aria-label={label(name)} onClick={onPress}>
        {text}
      </button>
    </li>
  );
}

/**
 * The products a code applies to: a name search of the products on sale (one request per pause in
 * typing), each result with its Add button, and the chosen ones with their Remove buttons. Buttons
 * all the way, so the keyboard's Tab and Enter do everything.
 */
export function ProductPicker({
  chosen,
  onChange,
  error,
}: {
  chosen: readonly ChosenProduct[];
  onChange: (products: ChosenProduct[]) => void;
  error?: string | undefined;
}) {
  const id = useId();
  const [typed, setTyped] = useState("");
  const [term, setTerm] = useState("");
  useEffect(() => {
    const timer = window.setTimeout(() => setTerm(typed.trim()), DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [typed]);
  const search = useProductSearch(term);
  const found = (term ? (search.data?.items ?? []) : []).filter((p) => !chosen.some((c) => c.id === p.id));
  const chosenId = `${id}-chosen`;
  return (
    <fieldset className="flex flex-col gap-3" aria-describedby={error ? `${id}-error` : undefined}>
      <legend className="mb-1 text-sm font-medium">{t.products}</legend>
      <FieldFrame label={t.findProduct} hint={`${t.findProductHint} ${t.productsHint}`}>
        {(control) => (
          <input
            {...control}
            type="search"
            className="input w-full"
            value={typed}
            autoComplete="off"
            maxLength={100}
            onChange={(event) => setTyped(event.target.value)}
            // Enter in the search adds nothing and sends no form.
            onKeyDown={(event) => {
              if (event.key === "Enter") event.preventDefault();
            }}
          />
        )}
      </FieldFrame>
      {term ? (
        <ul className="flex flex-col gap-1" aria-live="polite" aria-busy={search.isFetching}>
          {found.length === 0 && !search.isFetching ? (
            <li className="text-sm text-base-content/75">{t.noProductFound}</li>
          ) : null}
          {found.map((product) => (
            <ProductRow
              key={product.id}
              name={product.name}
              button="add"
              onPress={() => onChange([...chosen, { id: product.id, name: product.name }])}
            />
          ))}
        </ul>
      ) : null}
      <div>
        <p id={chosenId} className="text-sm font-medium">
          {t.chosenProducts}
        </p>
        {chosen.length === 0 ? (
          <p className="text-sm text-base-content/75">{t.noProductChosen}</p>
        ) : (
          <ul aria-labelledby={chosenId} className="mt-1 flex flex-col gap-1">
            {chosen.map((product) => (
              <ProductRow
                key={product.id}
                name={product.name}
                button="remove"
                onPress={() => onChange(chosen.filter((c) => c.id !== product.id))}
              />
            ))}
          </ul>
        )}
      </div>
      {error ? (
        <p id={`${id}-error`} className="text-sm text-error">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
