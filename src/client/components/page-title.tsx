import { messages } from "../../shared/messages.js";

/** Sets the document title for the page it is rendered in (hoisted into <head> by React). */
export function PageTitle({ title }: { title?: string }) {
  const brand = messages.nav.brand;
  return <title>{title ? `${title} · ${brand}` : `${brand} · ${messages.home.tagline}`}</title>;
}
