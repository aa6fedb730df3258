import { commonMessages } from "../../shared/messages/common.js";

/** A centred loading indicator that screen readers announce. */
export function Spinner({ label = commonMessages.loading }: { label?: string }) {
  return (
    <div role="status" className="flex justify-center py-12">
      <span className="loading loading-spinner loading-lg text-primary" aria-hidden="true" />
      <span className="sr-only">{label}</span>
    </div>
  );
}
