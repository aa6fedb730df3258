import type { Path } from "react-hook-form";
import { toast } from "sonner";
import { RATING_MAX, RATING_MIN } from "../../../../shared/constants.js";
import { reviewMessages } from "../../../../shared/messages/reviews.js";
import { type ReviewInput, reviewInputSchema } from "../../../../shared/reviews.js";
import { bindFields, bindSubmit } from "../../../components/form-bindings.js";
import { FormCard } from "../../../components/form-card.js";
import { SubmitRow } from "../../../components/submit-row.js";
import { TextareaField } from "../../../components/textarea-field.js";
import { WholeNumberField } from "../../../components/whole-number-field.js";
import { problemMessage, showServerError } from "../../../lib/form-errors.js";
import { useSchemaForm } from "../../../lib/use-schema-form.js";
import { useCreateReview } from "../api/create-review.js";

const text = reviewMessages.form;
const FIELDS: readonly Path<ReviewInput>[] = ["comment", "rating"];

/** Comment and rating; the server signs the review with the name on the account. */
export function ReviewForm({ name }: { name: string }) {
  const create = useCreateReview();
  const form = useSchemaForm(reviewInputSchema);
  const { setError, reset } = form;
  const field = bindFields(form);

  const submit = bindSubmit(form, (values) =>
    create.mutate(values, {
      onSuccess: () => {
        toast.success(text.posted);
        reset();
      },
      onError: (error) => {
        toast.error(problemMessage(error));
        showServerError(error, FIELDS, setError);
      },
    }),
  );

  return (
    <FormCard
      title={text.title}
      lead={text.postingAs(name)}
      {...submit}
      actions={<SubmitRow label={text.submit} pending={create.isPending} buttonClass="sm:min-w-40" />}
    >
      <TextareaField label={text.comment} hint={text.commentHint} rows={4} {...field("comment")} />
      <div className="sm:max-w-48">
        <WholeNumberField
          label={text.rating}
          hint={text.ratingHint}
          min={RATING_MIN}
          max={RATING_MAX}
          {...field("rating", { valueAsNumber: true })}
        />
      </div>
    </FormCard>
  );
}
