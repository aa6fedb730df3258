import { toast } from "sonner";
import { adminMessages } from "../../../../shared/messages/admin.js";
import { uploadMessages } from "../../../../shared/messages/uploads.js";
import { bindSubmit } from "../../../components/form-bindings.js";
import { FormCard } from "../../../components/form-card.js";
import { ImageField } from "../../../components/image-field.js";
import { PendingButton } from "../../../components/pending-button.js";
import { useImageUpload } from "../../../lib/use-image-upload.js";
import { useSchemaForm } from "../../../lib/use-schema-form.js";
import { useCreateProduct } from "../api/create-product.js";
import { productFormSchema, showProductSaveError } from "./product-fields.js";
import { ProductFormFields } from "./product-form-fields.js";

const text = adminMessages.products;

/**
 * Add Product: the image goes to /api/uploads first; only once it is stored is the product posted
 * with its URL. A failed upload posts nothing and says why under the image field.
 */
export function NewProductForm({ onCreated }: { onCreated: () => void }) {
  const create = useCreateProduct();
  const image = useImageUpload();
  const form = useSchemaForm(productFormSchema, { defaultValues: { priceTiers: [] } });
  const { setError, reset } = form;

  const submit = bindSubmit(
    form,
    async (values) => {
      if (!image.file) {
        image.setError(uploadMessages.missing);
        return;
      }
      const uploaded = await image.upload(image.file);
      if (uploaded.problem !== undefined) return;
      create.mutate(
        { ...values, image: uploaded.url },
        {
          onSuccess: (product) => {
            toast.success(text.created(product.name));
            // Without values, reset() also resets the <form>, which empties the file input.
            reset();
            image.clear();
            onCreated();
          },
          onError: (error) => showProductSaveError(error, image.setError, setError),
        },
      );
    },
    // An invalid form still says at once that the image is missing.
    () => {
      if (!image.file) image.setError(uploadMessages.missing);
    },
  );

  const busy = image.uploading || create.isPending;
  const status = image.uploading ? text.uploading : create.isPending ? text.saving : "";
  return (
    <FormCard
      title={text.formTitle}
      lead={text.formLead}
      {...submit}
      actions={
        <div className="flex flex-wrap items-center gap-3">
          <PendingButton type="submit" className="btn btn-primary sm:min-w-40" pending={busy}>
            {text.submit}
          </PendingButton>
          <span role="status" className="text-sm text-base-content/80">
            {status}
          </span>
        </div>
      }
    >
      <ImageField label={text.image} hint={text.imageHint} disabled={busy} {...image.field} />
      <ProductFormFields form={form} editing={false} />
    </FormCard>
  );
}
