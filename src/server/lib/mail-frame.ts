import { BRAND_NAME, MAIL_COLORS as c } from "../../shared/brand.js";

/**
 * The account mails' HTML (verify, reset, password changed, account exists, admin link: plain HTML
 * built where they are sent, features/accounts) in the frame the order mails have
 * (features/mail/templates.tsx): the shop's name on its dark band, its cyan, a white page, inline
 * styles only (mail clients drop style sheets). `body` is the mail's own paragraphs and links.
 */
export function framedMailHtml(body: string): string {
  const styled = body
    .replaceAll("<p>", `<p style="color:${c.text};font-size:15px;line-height:22px;margin:0 0 14px">`)
    .replaceAll("<a ", `<a style="color:${c.link};text-decoration:underline" `);
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="color-scheme" content="light"></head><body style="margin:0;background-color:${c.page};font-family:Helvetica,Arial,sans-serif"><table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background-color:${c.page}"><tr><td align="center"><table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background-color:${c.paper}"><tr><td style="background-color:${c.band};padding:16px 24px"><h1 style="color:${c.bandText};font-size:22px;margin:0">${BRAND_NAME}</h1></td></tr><tr><td style="padding:20px 24px 24px">${styled}</td></tr></table></td></tr></table></body></html>`;
}
