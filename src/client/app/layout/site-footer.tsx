import type { FormEvent } from "react";
import { Link } from "react-router";
import { toast } from "sonner";
import { CATEGORIES, CATEGORY_LABELS } from "../../../shared/constants.js";
import { commonMessages } from "../../../shared/messages/common.js";
import { ScriptButton } from "../../components/script-button.js";
import { paths } from "../../lib/paths.js";

const text = commonMessages.footer;

const COLUMNS: ReadonlyArray<{ title: string; links: ReadonlyArray<{ label: string; to: string }> }> = [
  {
    title: text.shop,
    links: [
      { label: text.allProducts, to: paths.tools },
      ...CATEGORIES.map((category) => ({
        label: CATEGORY_LABELS[category],
        to: `${paths.tools}?category=${category}`,
      })),
    ],
  },
  {
    title: text.explore,
    links: [
      { label: text.reviews, to: paths.reviews },
      { label: text.videos, to: paths.video },
      { label: text.ique, to: paths.ique },
      { label: text.blogs, to: paths.blogs },
    ],
  },
  {
    title: text.company,
    links: [
      { label: text.about, to: paths.about },
      { label: text.business, to: paths.business },
    ],
  },
  {
    title: text.support,
    links: [
      { label: text.shipping, to: `${paths.about}#shipping` },
      { label: text.help, to: `${paths.about}#support` },
      { label: text.myOrders, to: paths.dashboard.root },
      { label: text.passwordReset, to: paths.passwordReset },
    ],
  },
];

function subscribe(event: FormEvent<HTMLFormElement>) {
  // The product's (docs/product.md) Subscribe button sends nothing; the visitor still gets an answer.
  event.preventDefault();
  toast.info(text.subscribeNote);
}

/** Home section 7 and the bottom of every page: link columns and the newsletter box. */
export function SiteFooter() {
  return (
    <footer className="border-t border-base-content/10 bg-base-200">
      <div className="bg-rgb h-px opacity-60" aria-hidden="true" />
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-14 sm:px-6 lg:grid-cols-[1fr_2fr]">
        <div>
          <Link to={paths.home} className="inline-flex items-center gap-2 text-xl font-bold">
            <img src="/media/logo.svg" alt="" width={32} height={32} className="h-8 w-8" />
            {commonMessages.nav.brand}
          </Link>
          <p className="mt-3 max-w-sm text-base-content/75">{text.tagline}</p>
          <form onSubmit={subscribe} className="mt-6 max-w-sm">
            <h2 className="font-semibold">{text.newsletter}</h2>
            <p className="mt-1 text-sm text-base-content/75">{text.newsletterText}</p>
            <label htmlFor="newsletter-email" className="mt-4 mb-1 block text-sm font-medium">
              {text.emailLabel}
            </label>
            <div className="join w-full">
              <input
                id="newsletter-email"
                name="email"
                type="email"
                autoComplete="email"
                placeholder={text.emailPlaceholder}
                className="input join-item w-full"
              />
              <ScriptButton type="submit" className="btn btn-primary join-item">
                {text.subscribe}
              </ScriptButton>
            </div>
          </form>
        </div>
        <nav aria-label={text.navLabel} className="grid grid-cols-2 gap-8 sm:grid-cols-4">
          {COLUMNS.map((column) => (
            <div key={column.title}>
              <h2 className="text-sm font-semibold uppercase tracking-wider text-base-content/80">
                {column.title}
              </h2>
              <ul className="mt-4 space-y-3">
                {column.links.map((link) => (
                  <li key={link.to}>
                    <Link to={link.to} className="link link-hover text-base-content/80 hover:text-primary">
                      {link.label}
                    </Link>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </nav>
      </div>
      <div className="border-t border-base-content/10">
        <p className="mx-auto max-w-7xl px-4 py-6 text-sm text-base-content/75 sm:px-6">
          {text.copyright(new Date().getFullYear())}
        </p>
      </div>
    </footer>
  );
}
