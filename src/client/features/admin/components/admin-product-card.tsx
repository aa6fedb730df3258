import { useQuery } from "@tanstack/react-query";
import { type Ref, useEffect, useRef, useState } from "react";
import { Link } from "react-router";
import { toast } from "sonner";
import type { AdminProduct } from "../../../../shared/catalog.js";
import { CATEGORY_LABELS, LOW_STOCK_THRESHOLD } from "../../../../shared/constants.js";
import { adminMessages } from "../../../../shared/messages/admin.js";
import { pricingMessages } from "../../../../shared/messages/pricing.js";
import { ConfirmDialog } from "../../../components/confirm-dialog.js";
import { pickFields } from "../../../components/form-bindings.js";
import { ImageField } from "../../../components/image-field.js";
import { PendingButton } from "../../../components/pending-button.js";
import { ProductImage } from "../../../components/product-image.js";
import { problemMessage } from "../../../lib/form-errors.js";
import { formatCount, formatDay, formatPrice } from "../../../lib/format.js";
import { paths } from "../../../lib/paths.js";
import { useImageUpload } from "../../../lib/use-image-upload.js";
import { useLoadedValues } from "../../../lib/use-loaded-values.js";
import { useSchemaForm } from "../../../lib/use-schema-form.js";
import { useArchiveProduct } from "../api/archive-product.js";
import { useDeleteProduct } from "../api/delete-product.js";
import { adminProductQueryOptions } from "../api/get-admin-products.js";
import { useUpdateProduct } from "../api/update-product.js";
import { type ProductFormInput, productFormSchema, showProductSaveError } from "./product-fields.js";
import { ProductFormFields } from "./product-form-fields.js";

const text = adminMessages.products;
const tierRow = pricingMessages.tiers.row;

/** The product's values the Edit form holds: every field but the image, which is a file there. */
const EDITED = ["name", "sku", "category", "price", "quantity", "description", "priceTiers"] as const;

function editFields(product: AdminProduct): ProductFormInput {
  return pickFields(product, EDITED);
}

/**
 * A card's Edit form: every field of the product, and a new image, previewed once picked and
 * uploaded on Save (the current one stays without it). It opens at once with the list's values and
 * asks for the product as it is now (orders move its stock while the list sits in the page); what
 * arrives, and what later refetches bring, fills the fields the admin has not changed and leaves the
 * ones the admin typed into. So Save does not write back the list's older stock over the orders
 * placed since, nor lose typing.
 */
function EditProductForm({ product, onDone }: { product: AdminProduct; onDone: () => void }) {
  const update = useUpdateProduct();
  const image = useImageUpload();
  const current = useQuery({ ...adminProductQueryOptions(product.id), refetchOnMount: "always" });
  const latest = current.isFetchedAfterMount && current.data ? current.data : product;
  const form = useSchemaForm(productFormSchema, { defaultValues: editFields(product) });
  const { handleSubmit, setError, setFocus, formState } = form;
  const { errors } = formState;
  useLoadedValues(form, editFields(latest));

  useEffect(() => setFocus("name"), [setFocus]);

  const onSubmit = handleSubmit(async (values) => {
    let newImage: string | undefined;
    if (image.file) {
      const uploaded = await image.upload(image.file);
      if (uploaded.problem !== undefined) return;
      newImage = uploaded.url;
    }
    update.mutate(
      { id: product.id, patch: newImage ? { ...values, image: newImage } : values },
      {
        onSuccess: (saved) => {
          toast.success(text.updated(saved.name));
          onDone();
        },
        onError: (error) => showProductSaveError(error, image.setError, setError),
      },
    );
  });

  const busy = image.uploading || update.isPending;
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
      <ProductFormFields form={form} editing />
      <ImageField label={text.newImage} hint={text.newImageHint} disabled={busy} {...image.field} />
      {errors.root?.server ? (
        <p role="alert" className="text-sm text-error">
          {errors.root.server.message}
        </p>
      ) : null}
      <div className="flex items-center gap-2">
        <PendingButton type="submit" className="btn btn-sm btn-primary" pending={busy} spinner="xs">
          {text.save}
        </PendingButton>
        <button type="button" className="btn btn-sm" onClick={onDone} disabled={busy}>
          {adminMessages.cancel}
        </button>
        <span role="status" className="text-sm text-base-content/80">
          {image.uploading ? text.uploading : ""}
        </span>
      </div>
    </form>
  );
}

/** Archive or Restore (at once: either is undone by the other), and Delete behind a confirm dialog. */
type ActionsProps = { product: AdminProduct; onEdit: () => void; editRef: Ref<HTMLButtonElement> };

function ProductActions({ product, onEdit, editRef }: ActionsProps) {
  const archive = useArchiveProduct();
  const remove = useDeleteProduct();
  const [confirming, setConfirming] = useState(false);
  const archived = product.archivedAt !== null;

  const toggleArchive = () =>
    archive.mutate(
      { id: product.id, archived: !archived },
      {
        onSuccess: (saved) => toast.success(archived ? text.restored(saved.name) : text.archived(saved.name)),
        onError: (error) => toast.error(problemMessage(error)),
      },
    );
  const confirmDelete = () =>
    remove.mutate(product.id, {
      onSuccess: () => {
        setConfirming(false);
        toast.success(text.deleted(product.name));
      },
      onError: (error) => {
        setConfirming(false);
        // A product that was ordered: the message says to archive it instead.
        toast.error(problemMessage(error));
      },
    });

  return (
    <div className="mt-auto flex flex-wrap gap-2">
      <button
        ref={editRef}
        type="button"
        className="btn btn-sm btn-outline"
        aria-label={text.editFor(product.name)}
        onClick={onEdit}
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
      <PendingButton
        type="button"
        className="btn btn-sm btn-outline border-base-content/25"
        aria-label={archived ? text.restoreFor(product.name) : text.archiveFor(product.name)}
        pending={archive.isPending}
        spinner="xs"
        onClick={toggleArchive}
      >
        {archived ? text.restore : text.archive}
      </PendingButton>
      <button
        type="button"
        className="btn btn-sm btn-ghost text-error"
        aria-label={text.deleteFor(product.name)}
        onClick={() => setConfirming(true)}
      >
        {text.delete}
      </button>
      <ConfirmDialog
        open={confirming}
        title={text.deleteTitle(product.name)}
        text={text.deleteText}
        confirmLabel={text.delete}
        cancelLabel={adminMessages.cancel}
        pending={remove.isPending}
        onConfirm={confirmDelete}
        onClose={() => setConfirming(false)}
      />
    </div>
  );
}

/**
 * A product as the admin sees it: image, category, name, price, stock and description (and when it
 * was archived), with Edit, Archive or Restore, and Delete.
 */
export function AdminProductCard({ product }: { product: AdminProduct }) {
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
        <p className="flex flex-wrap items-center gap-2 text-xs font-semibold uppercase tracking-wider text-primary">
          {CATEGORY_LABELS[product.category]}
          {product.archivedAt ? (
            <span className="badge badge-neutral badge-sm normal-case tracking-normal">
              {text.archivedOn(formatDay(product.archivedAt))}
            </span>
          ) : null}
        </p>
        <h3 className="card-title text-lg leading-snug">{product.name}</h3>
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <p className="text-2xl font-bold">{formatPrice(product.price)}</p>
          <p className="flex items-center gap-2 text-sm text-base-content/80">
            {low ? <span className="badge badge-error badge-soft badge-sm">{text.lowStock}</span> : null}
            {text.stock(formatCount(product.quantity))}
          </p>
        </div>
        {product.priceTiers.length > 0 ? (
          <p className="text-sm text-base-content/80">
            {text.tiers.summary(
              product.priceTiers.map((t) => tierRow(t.min, formatPrice(t.price))).join(" · "),
            )}
          </p>
        ) : null}
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
          <ProductActions product={product} editRef={editButton} onEdit={() => setEditing(true)} />
        )}
      </div>
    </article>
  );
}
