import { describe, expect, it } from "vitest";
import { BRAND_NAME, MAIL_COLORS } from "../../../shared/brand.js";
import { accountExistsMail, passwordChangedMail } from "./auth.js";
import { accountDeletedMail } from "./delete-account.js";

describe("the account mails' look", () => {
  it("wear the shop's name on its dark band, its cyan links, and no purple", () => {
    const url = "https://shop.example";
    for (const mail of [
      passwordChangedMail(url, new Date(), true),
      accountExistsMail(url),
      accountDeletedMail(url, new Date()),
    ]) {
      expect(mail.html).toMatch(
        new RegExp(`<h1[^>]*color:${MAIL_COLORS.bandText}[^>]*>${BRAND_NAME}</h1>`, "i"),
      );
      expect(mail.html).toContain(`background-color:${MAIL_COLORS.band}`);
      expect(mail.html).toMatch(new RegExp(`<a style="color:${MAIL_COLORS.link}[^"]*" href="${url}/`));
      expect(mail.html).not.toMatch(/#7c3aed|violet|purple/i);
      // The plain text is as it was: no frame in it.
      expect(mail.text).not.toContain("<");
    }
  });
});
