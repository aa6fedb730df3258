/**
 * A decorative 24×24 icon drawn by one path; the control it sits in carries the words. The class
 * sets its size and whether the path is filled or stroked.
 */
export function Icon({ path, className }: { path: string; className: string }) {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" className={className}>
      <path d={path} />
    </svg>
  );
}
