import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import type { Path } from "react-hook-form";
import { Link } from "react-router";
import { toast } from "sonner";
import type { z } from "zod";
import { type Product, productInputSchema } from "../../../../shared/catalog.js";
import { CATEGORY_LABELS, LOW_STOCK_THRESHOLD } from "../../../../shared/constants.js";
import { adminMessages } from "../../../../shared/messages/admin.js";
import { PendingButton } from "../../../components/pending-button.js";
import { ProductImage } from "../../../components/product-image.js";
import { problemMessage, showServerError } from "../../../lib/form-errors.js";
import { formatCount, formatPrice } from "../../../lib/format.js";
import { productQueryOptions } from "../../../lib/get-product.js";
import { paths } from "../../../lib/paths.js";
import { useLoadedValues } from "../../../lib/use-loaded-values.js";
import { useSchemaForm } from "../../../lib/use-schema-form.js";
import { useUpdateProduct } from "../api/update-product.js";
import { DescriptionField, PriceField, StockField } from "./product-fields.js";

const text = adminMessages.products;

/** What a card lets the admin change: reprice, restock, reword. */
const editSchema = productInputSchema.pick({ price: true, quantity: true, description: true });
type EditInput = z.input<typeof editSchema>;
const FIELDS: readonly Path<EditInput>[] = ["price", "quantity", "description"];

function editFields(product: Product): EditInput {
  return { price: product.price, quantity: product.quantity, description: product.description };
}

/**
 * A card's Edit form. It opens at once with the list's values and asks for the product as it is now
 * (orders move its stock while the list sits in the page); what arrives, and what later refetches
 * bring, fills the fields the admin has not changed and leaves the ones the admin typed into. So
 * Save does not write back the list's older stock over the orders placed since, nor lose typing.
 */
function EditProductForm({ product, onDone }: { product: Product; onDone: () => void }) {
  const update = useUpdateProduct();
  const current = useQuery({ ...productQueryOptions(product.id), refetchOnMount: "always" });
  const latest = current.isFetchedAfterMount && current.data ? current.data : product;
  const form = useSchemaForm(editSchema, { defaultValues: editFields(product) });
  const { register, handleSubmit, setError, setFocus, formState } = form;
  const { errors } = formState;
  useLoadedValues(form, editFields(latest));

  useEffect(() => setFocus("price"), [setFocus]);

  const onSubmit = handleSubmit((patch) =>
    update.mutate(
      { id: product.id, patch },
      {
        onSuccess: (saved) => {
          toast.success(text.updated(saved.name));
          onDone();
        },
        onError: (error) => {
          toast.error(problemMessage(error));
          showServerError(error, FIELDS, setError);
        },
      },
    ),
  );

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      aria-label={text.editTitle(product.name)}
      className="flex flex-col gap-3 border-t border-base-content/10 pt-4"
      onKeyDown={(event) => {
        if (event.key === "Escape") onDone();
      }}
    >
      <div className="grid grid-cols-2 gap-3">
        <PriceField error={errors.price?.message} {...register("price", { valueAsNumber: true })} />
        <StockField error={errors.quantity?.message} {...register("quantity", { valueAsNumber: true })} />
      </div>
      <DescriptionField error={errors.description?.message} {...register("description")} />
      {errors.root?.server ? (
        <p role="alert" className="text-sm text-error">
          {errors.root.server.message}
        </p>
      ) : null}
      <div className="flex gap-2">
        <PendingButton
          type="submit"
          className="btn btn-sm btn-primary"
          pending={update.isPending}
          spinner="xs"
        >
          {text.save}
        </PendingButton>
        <button type="button" className="btn btn-sm" onClick={onDone} disabled={update.isPending}>
          {adminMessages.cancel}
        </button>
      </div>
    </form>
  );
}

/** A product as the admin sees it: image, name, price, stock and description, with Edit. */
export function AdminProductCard({ product }: { product: Product }) {
  const [editing, setEditing] = useState(false);
  const editButton = useRef<HTMLButtonElement>(null);
  // Set when the form closes, so focus goes back to the Edit button that opened it.
  const returnFocus = useRef(false);

  useEffect(() => {
    if (!editing && returnFocus.current) {
      returnFocus.current = false;
      editButton.current?.focus();
    }
  }, [editing]);

  const low = product.quantity < LOW_STOCK_THRESHOLD;
  return (
    <article className="card h-full border border-base-content/10 bg-base-200">
      <ProductImage src={product.image} alt={product.name} />
      <div className="card-body gap-3">
        <p className="text-xs font-semibold uppercase tracking-wider text-primary">
          {CATEGORY_LABELS[product.category]}
        </p>
        <h3 className="card-title text-lg leading-snug">{product.name}</h3>
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <p className="text-2xl font-bold">{formatPrice(product.price)}</p>
          <p className="flex items-center gap-2 text-sm text-base-content/80">
            {low ? <span className="badge badge-error badge-soft badge-sm">{text.lowStock}</span> : null}
            {text.stock(formatCount(product.quantity))}
          </p>
        </div>
        <p className="line-clamp-3 text-sm text-base-content/80">{product.description}</p>
        {editing ? (
          <EditProductForm
            product={product}
            onDone={() => {
              returnFocus.current = true;
              setEditing(false);
            }}
          />
        ) : (
          <div className="mt-auto flex flex-wrap gap-2">
            <button
              ref={editButton}
              type="button"
              className="btn btn-sm btn-outline"
              aria-label={text.editFor(product.name)}
              onClick={() => setEditing(true)}
            >
              {text.edit}
            </button>
            <Link
              to={paths.dashboard.stock(product.id)}
              className="btn btn-sm btn-ghost"
              aria-label={text.stockLinkFor(product.name)}
            >
              {text.stockLink}
            </Link>
          </div>
        )}
      </div>
    </article>
  );
}
