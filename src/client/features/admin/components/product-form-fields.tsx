import type { UseFormReturn } from "react-hook-form";
import type { z } from "zod";
import { bindFields } from "../../../components/form-bindings.js";
import { PriceTiersField } from "./price-tiers-field.js";
import {
  CategoryField,
  DescriptionField,
  NameField,
  PriceField,
  type ProductFormInput,
  type productFormSchema,
  SkuField,
  StockField,
} from "./product-fields.js";

type Props = {
  form: UseFormReturn<ProductFormInput, unknown, z.output<typeof productFormSchema>>;
  /** A card's Edit: a narrow form, the category on a row of its own and the SKU's edit hint. */
  editing: boolean;
};

/**
 * Every field of a product but its image, as Add Product and a card's Edit both ask for them: the
 * wide Add Product puts price, stock and category on one row, the card's narrow Edit only price and
 * stock.
 */
export function ProductFormFields({ form, editing }: Props) {
  const field = bindFields(form);
  const price = <PriceField {...field("price", { valueAsNumber: true })} />;
  const stock = <StockField {...field("quantity", { valueAsNumber: true })} />;
  return (
    <>
      <NameField {...field("name")} />
      <SkuField editing={editing} {...field("sku")} />
      {editing ? (
        <>
          <CategoryField {...field("category")} />
          <div className="grid grid-cols-2 gap-3">
            {price}
            {stock}
          </div>
          {/* Issue 31, item 3: the product's low-stock threshold field goes here (migration 0018). */}
        </>
      ) : (
        <div className="grid gap-5 sm:grid-cols-3">
          {price}
          {stock}
          {/* Empty until chosen: the disabled "Choose a category" shows. */}
          <CategoryField defaultValue="" {...field("category")} />
        </div>
      )}
      <PriceTiersField control={form.control} register={form.register} errors={form.formState.errors} />
      <DescriptionField {...field("description")} />
    </>
  );
}
