import type { ReactNode } from "react";
import { useHref, useLinkClickHandler } from "react-router";

type Props = {
  /** The list's words: the pager's name, and its two steps' labels (from its messages module). */
  texts: { pages: string; previous: string; next: string };
  /** Where each step leads; undefined where the list has no page that way. */
  steps: { previous: string | undefined; next: string | undefined };
};

/**
 * Previous and Next of a cursor-paged list. A step that is not possible stays in place, focusable
 * and marked disabled, so keyboard focus is not thrown back to the page's start when the last
 * page arrives under it.
 */
export function CursorPager({ texts, steps }: Props) {
  return (
    <nav aria-label={texts.pages} className="mt-6 flex justify-between gap-3">
      <PagerLink href={steps.previous}>
        <span aria-hidden="true">«</span> {texts.previous}
      </PagerLink>
      <PagerLink href={steps.next}>
        {texts.next} <span aria-hidden="true">»</span>
      </PagerLink>
    </nav>
  );
}

/** Always the same <a>, so it keeps focus when it turns disabled. */
function PagerLink({ href, children }: { href: string | undefined; children: ReactNode }) {
  const resolved = useHref(href ?? ".");
  const onClick = useLinkClickHandler(href ?? ".", { preventScrollReset: true });
  if (href === undefined)
    return (
      // biome-ignore lint/a11y/useValidAnchor: a disabled link stays focusable in place (see above).
      <a role="link" aria-disabled="true" tabIndex={0} className="btn btn-disabled">
        {children}
      </a>
    );
  return (
    <a href={resolved} onClick={onClick} className="btn border-base-content/15">
      {children}
    </a>
  );
}
