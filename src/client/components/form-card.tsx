import { type ReactNode, useId } from "react";
import { Form, type FormProps } from "./form.js";

type Props = FormProps & {
  title: string;
  lead: ReactNode;
  /** A lead in small print, for a form beside other content (the product page's booking). */
  smallLead?: boolean;
  /** More room between the rows, for a form with a row of choices above its fields. */
  roomy?: boolean;
};

/** A form in a card of its own, named by its title: its lead, fields, the server's error and buttons. */
export function FormCard({ title, lead, smallLead, roomy, children, ...form }: Props) {
  const titleId = useId();
  return (
    <section aria-labelledby={titleId} className="card border border-base-content/10 bg-base-200">
      <Form {...form} className={roomy ? "card-body gap-6" : "card-body gap-5"}>
        <div>
          <h2 id={titleId} className="card-title text-xl">
            {title}
          </h2>
          <p className={smallLead ? "mt-1 text-sm text-base-content/80" : "mt-1 text-base-content/80"}>
            {lead}
          </p>
        </div>
        {children}
      </Form>
    </section>
  );
}
