import { commonMessages } from "../../shared/messages/common.js";
import { homeMessages } from "../../shared/messages/home.js";

/** Sets the document title for the page it is rendered in (hoisted into <head> by React). */
export function PageTitle({ title }: { title?: string }) {
  const brand = commonMessages.nav.brand;
  return <title>{title ? `${title} · ${brand}` : `${brand} · ${homeMessages.tagline}`}</title>;
}
