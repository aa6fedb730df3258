import type {
  FieldPath,
  FieldValues,
  RegisterOptions,
  SubmitErrorHandler,
  SubmitHandler,
  UseFormReturn,
} from "react-hook-form";

// What the shared form components take from a schema form (lib/use-schema-form.ts), each bound
// once here, so no form can pair a field with another field's error or forget its server's error.

type SchemaForm<Values extends FieldValues, Output> = UseFormReturn<Values, unknown, Output>;

/**
 * A field's react-hook-form register() and its own error message, bound by one name:
 * `const field = bindFields(form)`, then `<TextField label={…} {...field("city")} />`.
 */
export function bindFields<Values extends FieldValues, Output>(form: SchemaForm<Values, Output>) {
  return <Name extends FieldPath<Values>>(name: Name, options?: RegisterOptions<Values, Name>) => ({
    // Read through formState, so the form draws again when the error comes or goes.
    error: form.getFieldState(name, form.formState).error?.message,
    ...form.register(name, options),
  });
}

/**
 * What Form and FormCard take from the form: its submit, which runs `onValid` once the schema
 * accepts the values, and the server's form-level error (`errors.root.server`, lib/form-errors.ts).
 */
export function bindSubmit<Values extends FieldValues, Output>(
  form: SchemaForm<Values, Output>,
  onValid: SubmitHandler<Output>,
  onInvalid?: SubmitErrorHandler<Values>,
) {
  return {
    onSubmit: form.handleSubmit(onValid, onInvalid),
    serverError: form.formState.errors.root?.server,
  };
}

/**
 * What a form's fields hold of a saved record (the product being edited, the saved profile): its
 * named values, so the names are listed once, beside the form's other uses of them.
 */
export function pickFields<Saved extends object, Name extends keyof Saved>(
  saved: Saved,
  names: readonly Name[],
): Pick<Saved, Name> {
  // Object.fromEntries cannot say which keys it makes; these are exactly `names`.
  return Object.fromEntries(names.map((name) => [name, saved[name]])) as Pick<Saved, Name>;
}
