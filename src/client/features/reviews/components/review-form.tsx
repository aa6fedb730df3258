import type { Path } from "react-hook-form";
import { toast } from "sonner";
import { RATING_MAX, RATING_MIN } from "../../../../shared/constants.js";
import { reviewMessages } from "../../../../shared/messages/reviews.js";
import { type ReviewInput, reviewInputSchema } from "../../../../shared/reviews.js";
import { FormCard } from "../../../components/form-card.js";
import { SubmitButton } from "../../../components/submit-button.js";
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
  const { register, handleSubmit, setError, reset, formState } = useSchemaForm(reviewInputSchema);
  const { errors } = formState;

  const onSubmit = handleSubmit((values) =>
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
      onSubmit={onSubmit}
      serverError={errors.root?.server}
      actions={
        <div className="flex items-center gap-3">
          <SubmitButton pending={create.isPending} className="sm:min-w-40">
            {text.submit}
          </SubmitButton>
        </div>
      }
    >
      <TextareaField
        label={text.comment}
        hint={text.commentHint}
        rows={4}
        error={errors.comment?.message}
        {...register("comment")}
      />
      <div className="sm:max-w-48">
        <WholeNumberField
          label={text.rating}
          hint={text.ratingHint}
          min={RATING_MIN}
          max={RATING_MAX}
          error={errors.rating?.message}
          {...register("rating", { valueAsNumber: true })}
        />
      </div>
    </FormCard>
  );
}
