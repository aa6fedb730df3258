import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  oneClickUnsubscribeUrl,
  reminderUnsubscribeToken,
  unsubscribePageUrl,
  userOfUnsubscribeToken,
} from "./token.js";

const SECRET = "a-secret-a-secret-a-secret-a-secret-0123";
const OTHER_SECRET = "b-secret-b-secret-b-secret-b-secret-0123";

describe("the one-click unsubscribe token", () => {
  it("names the account it was made for, and never ends", () => {
    const token = reminderUnsubscribeToken(SECRET, "user-1");
    expect(userOfUnsubscribeToken(SECRET, token)).toBe("user-1");
    expect(reminderUnsubscribeToken(SECRET, "user-1")).toBe(token);
    // Any id, whatever its letters.
    expect(userOfUnsubscribeToken(SECRET, reminderUnsubscribeToken(SECRET, "ü.d/ 1"))).toBe("ü.d/ 1");
  });

  it("refuses a forged token, another account's, or one altered in any way", () => {
    const token = reminderUnsubscribeToken(SECRET, "user-1");
    const [id, mac] = token.split(".") as [string, string];
    const otherId = Buffer.from("user-2").toString("base64url");
    for (const forged of [
      reminderUnsubscribeToken(OTHER_SECRET, "user-1"),
      `${otherId}.${mac}`,
      `${id}.${reminderUnsubscribeToken(SECRET, "user-2").split(".")[1]}`,
      `${id}.${mac.slice(0, -1)}`,
      `${id}.${mac}A`,
      `${id}=.${mac}`,
      `${token}.extra`,
      id,
      `.${mac}`,
      "",
    ])
      expect(userOfUnsubscribeToken(SECRET, forged), forged).toBeUndefined();
  });

  it("is signed for its purpose: a back-in-stock link's signature of the same id does not pass", () => {
    // features/stock-notices/token.ts signs "stock-notice:<id>" with the same secret.
    const stockNotice = createHmac("sha256", SECRET).update("stock-notice:user-1").digest("base64url");
    const id = Buffer.from("user-1").toString("base64url");
    expect(userOfUnsubscribeToken(SECRET, `${id}.${stockNotice}`)).toBeUndefined();
  });

  it("makes the one-click address and the page's, both with the token", () => {
    const token = encodeURIComponent(reminderUnsubscribeToken(SECRET, "user-1"));
    expect(oneClickUnsubscribeUrl("https://shop.example", SECRET, "user-1")).toBe(
      `https://shop.example/api/mail/unsubscribe?token=${token}`,
    );
    expect(unsubscribePageUrl("https://shop.example", SECRET, "user-1")).toBe(
      `https://shop.example/unsubscribe?token=${token}`,
    );
  });
});
