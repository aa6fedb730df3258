import type { ReactNode, Ref } from "react";

type Props = {
  /** The id of the table's caption or heading, which names the region. */
  labelledBy: string;
  children: ReactNode;
  ref?: Ref<HTMLElement>;
};

/**
 * The frame of a wide table: it scrolls sideways on phones, and as a named, focusable region the
 * keyboard can scroll it too (and a page can move focus here once a row it pointed at is gone).
 */
export function TableRegion({ labelledBy, children, ref }: Props) {
  return (
    <section
      ref={ref}
      aria-labelledby={labelledBy}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard (WCAG 2.1.1).
      tabIndex={0}
      className="overflow-x-auto rounded-box border border-base-content/10 bg-base-200"
    >
      {children}
    </section>
  );
}
