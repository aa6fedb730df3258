import type { ReactNode } from "react";

type Props = {
  id: string;
  title: string;
  children: ReactNode;
};

/** A titled block of running text on the content pages. */
export function ProseSection({ id, title, children }: Props) {
  return (
    <section aria-labelledby={id} className="scroll-mt-24">
      <h2 id={id} className="text-2xl font-bold tracking-tight sm:text-3xl">
        {title}
      </h2>
      <div className="mt-4 space-y-4 text-base-content/85 leading-relaxed [&_a]:link [&_a]:link-primary [&_li]:ml-5 [&_ol]:list-decimal [&_ol]:space-y-2 [&_ul]:list-disc [&_ul]:space-y-2 [&_:not(pre)>code]:rounded [&_:not(pre)>code]:bg-base-300 [&_:not(pre)>code]:px-1.5 [&_:not(pre)>code]:py-0.5 [&_:not(pre)>code]:text-[0.9em]">
        {children}
      </div>
    </section>
  );
}
