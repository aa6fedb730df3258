import type { ReactNode } from "react";

/** A form-level error (the server's detail), announced as soon as it appears. */
export function FormAlert({ children }: { children: ReactNode }) {
  return (
    <div role="alert" className="alert alert-error alert-soft text-sm">
      <div>{children}</div>
    </div>
  );
}
