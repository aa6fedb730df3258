import { PLAIN_AMOUNTS } from "../../shared/test/amounts.js";
import type { MailOrder } from "../features/mail/templates.js";

/**
 * An order as the order mails render it: ten units of a keyboard at $37, neither discount nor tax
 * nor company, paid, not shipped; `fields` on top (a name of the test's own, a carrier, amounts).
 */
export function mailOrder(fields: Partial<MailOrder> = {}): MailOrder {
  return {
    id: "0b6f1c3e-1111-4222-8333-444455556666",
    productId: "7d0c1e2f-5555-4666-8777-888899990000",
    productName: "Aurora TKL keyboard",
    name: "Ada Mail",
    email: "ada@example.com",
    quantity: 10,
    unitPrice: 37,
    ...PLAIN_AMOUNTS,
    companyName: null,
    companyTaxId: null,
    expiresAt: new Date("2026-11-24T14:05:00Z"),
    paidAt: new Date("2026-11-24T13:05:00Z"),
    transactionId: "pi_mail",
    carrier: null,
    trackingNumber: null,
    ...fields,
  };
}
