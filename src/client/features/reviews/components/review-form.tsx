import { zodResolver } from "@hookform/resolvers/zod";
import { type Path, useForm } from "react-hook-form";
import { toast } from "sonner";
import type { z } from "zod";
import { RATING_MAX, RATING_MIN } from "../../../../shared/constants.js";
import { reviewMessages } from "../../../../shared/messages/reviews.js";
import { type ReviewInput, reviewInputSchema } from "../../../../shared/reviews.js";
import { FormAlert } from "../../../components/form-alert.js";
import { SubmitButton } from "../../../components/submit-button.js";
import { TextField } from "../../../components/text-field.js";
import { TextareaField } from "../../../components/textarea-field.js";
import { problemMessage, showServerError } from "../../../lib/form-errors.js";
import { useCreateReview } from "../api/create-review.js";

const text = reviewMessages.form;
type ReviewValues = z.output<typeof reviewInputSchema>;
const FIELDS: readonly Path<ReviewInput>[] = ["comment", "rating"];

/** Comment and rating; the server signs the review with the name on the account. */
export function ReviewForm({ name }: { name: string }) {
  const create = useCreateReview();
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors },
  } = useForm<ReviewInput, unknown, ReviewValues>({
    resolver: zodResolver(reviewInputSchema),
    mode: "onSubmit",
    reValidateMode: "onChange",
  });

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
    <section aria-labelledby="review-form-title" className="card border border-base-content/10 bg-base-200">
      <form onSubmit={onSubmit} noValidate className="card-body gap-5">
        <div>
          <h2 id="review-form-title" className="card-title text-xl">
            {text.title}
          </h2>
          <p className="mt-1 text-base-content/80">{text.postingAs(name)}</p>
        </div>
        <TextareaField
          label={text.comment}
          hint={text.commentHint}
          rows={4}
          error={errors.comment?.message}
          {...register("comment")}
        />
        <div className="sm:max-w-48">
          <TextField
            label={text.rating}
            hint={text.ratingHint}
            type="number"
            inputMode="numeric"
            min={RATING_MIN}
            max={RATING_MAX}
            step={1}
            error={errors.rating?.message}
            {...register("rating", { valueAsNumber: true })}
          />
        </div>
        {errors.root?.server ? <FormAlert>{errors.root.server.message}</FormAlert> : null}
        <div className="flex items-center gap-3">
          <SubmitButton pending={create.isPending} className="sm:min-w-40">
            {text.submit}
          </SubmitButton>
        </div>
      </form>
    </section>
  );
}
