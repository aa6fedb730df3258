/** A code sample in an article; scrolls sideways on narrow screens instead of overflowing. */
export function CodeBlock({ code, label }: { code: string; label: string }) {
  return (
    <figure>
      <figcaption className="mb-2 text-sm text-base-content/75">{label}</figcaption>
      <pre
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (WCAG 2.1.1)
        tabIndex={0}
        className="overflow-x-auto rounded-box border border-base-content/10 bg-base-300 p-4 text-sm leading-relaxed"
      >
        <code>{code.trim()}</code>
      </pre>
    </figure>
  );
}
