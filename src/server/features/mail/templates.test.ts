import { describe, expect, it } from "vitest";
import { mailMessages } from "../../../shared/messages/mail.js";
import { stockMessages } from "../../../shared/messages/stock.js";
import { renderLowStockMail } from "./templates.js";

const t = stockMessages.mail;

describe("the low-stock mail", () => {
  it("is drawn in the order mails' frame, with its own footer and no shop signature", async () => {
    const mail = await renderLowStockMail(
      { productId: "p-1", productName: "Gale 120 Fan", quantity: 3, threshold: 5, adminName: "Ada Admin" },
      "https://shop.example",
    );
    expect(mail.subject).toBe(t.subject("Gale 120 Fan"));
    // The order mails' frame: the shop's name as the h1, then the greeting.
    expect(mail.html).toMatch(/<h1[^>]*>Gearhouse<\/h1>/);
    expect(mail.text).toContain(mailMessages.greeting("Ada Admin"));
    expect(mail.text).toContain(t.body("Gale 120 Fan", 3, 5));
    expect(mail.html).toContain('href="https://shop.example/dashboard/stock/p-1"');
    expect(mail.text).toContain(t.footer);
    // An admin's notice, not a customer's mail: no thanks for shopping, no link to My Orders.
    expect(mail.text).not.toContain(mailMessages.signature);
    expect(mail.text).not.toContain(mailMessages.footer);
  });
});
