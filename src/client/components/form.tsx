import { type FocusEventHandler, type FormEventHandler, type ReactNode, useEffect, useRef } from "react";
import { FormAlert } from "./form-alert.js";

export type FormProps = {
  onSubmit: FormEventHandler<HTMLFormElement>;
  /** When anything in the form gets the focus, e.g. to load what its check needs (use-schema-form.ts). */
  onFocusCapture?: FocusEventHandler<HTMLFormElement>;
  /** The form's own error from the server (`errors.root.server`, see lib/form-errors.ts). */
  serverError: { message?: string | undefined } | undefined;
  /** Shown under the server's message, e.g. a link to what can be done about it. */
  serverErrorAction?: ReactNode;
  /** The submit button, with whatever stands beside it. */
  actions: ReactNode;
  children: ReactNode;
};

/**
 * A form the shop validates itself (the shared schema, so the browser's own bubbles stay off): its
 * fields, then the server's form-level error, announced as it appears, then its buttons.
 */
export function Form({
  onSubmit,
  onFocusCapture,
  serverError,
  serverErrorAction,
  actions,
  className = "flex flex-col gap-5",
  children,
}: FormProps & { className?: string }) {
  const ref = useRef<HTMLFormElement>(null);
  // From here React answers the form's submit (boot.ts holds one pressed before: send it now).
  useEffect(() => {
    const form = ref.current;
    if (!form) return;
    form.dataset.ready = "";
    if (form.dataset.queued === undefined) return;
    delete form.dataset.queued;
    form.requestSubmit();
  }, []);
  return (
    <form ref={ref} onSubmit={onSubmit} onFocusCapture={onFocusCapture} noValidate className={className}>
      {children}
      {serverError ? (
        <FormAlert>
          <p>{serverError.message}</p>
          {serverErrorAction}
        </FormAlert>
      ) : null}
      {actions}
    </form>
  );
}
