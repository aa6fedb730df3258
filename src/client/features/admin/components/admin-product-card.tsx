import { zodResolver } from "@hookform/resolvers/zod";
import { useEffect, useRef, useState } from "react";
import { type Path, useForm } from "react-hook-form";
import { toast } from "sonner";
import type { z } from "zod";
import { CATEGORY_LABELS, type Product, productInputSchema } from "../../../../shared/catalog.js";
import { LOW_STOCK_THRESHOLD } from "../../../../shared/constants.js";
import { messages } from "../../../../shared/messages.js";
import { TextField } from "../../../components/text-field.js";
import { TextareaField } from "../../../components/textarea-field.js";
import { problemMessage, showServerError } from "../../../lib/form-errors.js";
import { formatCount, formatPrice } from "../../../lib/format.js";
import { useUpdateProduct } from "../api/update-product.js";

const text = messages.admin.products;

/** What a card lets the admin change: reprice, restock, reword. */
const editSchema = productInputSchema.pick({ price: true, quantity: true, description: true });
type EditInput = z.input<typeof editSchema>;
type EditValues = z.output<typeof editSchema>;
const FIELDS: readonly Path<EditInput>[] = ["price", "quantity", "description"];

function EditProductForm({ product, onDone }: { product: Product; onDone: () => void }) {
  const update = useUpdateProduct();
  const {
    register,
    handleSubmit,
    setError,
    setFocus,
    formState: { errors },
  } = useForm<EditInput, unknown, EditValues>({
    resolver: zodResolver(editSchema),
    mode: "onSubmit",
    reValidateMode: "onChange",
    defaultValues: { price: product.price, quantity: product.quantity, description: product.description },
  });

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
        <TextField
          label={text.price}
          type="number"
          inputMode="numeric"
          min={1}
          step={1}
          error={errors.price?.message}
          {...register("price", { valueAsNumber: true })}
        />
        <TextField
          label={text.quantity}
          type="number"
          inputMode="numeric"
          min={0}
          step={1}
          error={errors.quantity?.message}
          {...register("quantity", { valueAsNumber: true })}
        />
      </div>
      <TextareaField
        label={text.description}
        rows={4}
        error={errors.description?.message}
        {...register("description")}
      />
      {errors.root?.server ? (
        <p role="alert" className="text-sm text-error">
          {errors.root.server.message}
        </p>
      ) : null}
      <div className="flex gap-2">
        <button type="submit" className="btn btn-sm btn-primary" disabled={update.isPending}>
          {update.isPending ? (
            <span className="loading loading-spinner loading-xs" aria-hidden="true" />
          ) : null}
          {text.save}
        </button>
        <button type="button" className="btn btn-sm" onClick={onDone} disabled={update.isPending}>
          {messages.admin.cancel}
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
      <figure className="aspect-[4/3] bg-base-300">
        <img
          src={product.image}
          alt={product.name}
          width={800}
          height={600}
          loading="lazy"
          decoding="async"
          className="h-full w-full object-cover"
        />
      </figure>
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
          <button
            ref={editButton}
            type="button"
            className="btn btn-sm btn-outline mt-auto"
            aria-label={text.editFor(product.name)}
            onClick={() => setEditing(true)}
          >
            {text.edit}
          </button>
        )}
      </div>
    </article>
  );
}
