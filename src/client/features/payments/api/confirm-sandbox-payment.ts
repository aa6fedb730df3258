import type { SandboxConfirmInput, SandboxConfirmResult } from "../../../../shared/payments.js";
import { api } from "../../../lib/api.js";

/** The sandbox provider's card confirmation; a refused card throws ApiError 402 with its message. */
export function confirmSandboxPayment(input: SandboxConfirmInput): Promise<SandboxConfirmResult> {
  return api<SandboxConfirmResult>("/api/payments/sandbox/confirm", { method: "POST", json: input });
}
