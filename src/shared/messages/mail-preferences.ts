/** Which mails a customer gets: Profile's Mails card, the one-click unsubscribe page and the mails' footers. */
export const mailPreferenceMessages = {
  card: {
    heading: "Mails",
    lead: "Receipts, shipping and refund mails always go, and so do the booking mail and word that an unpaid order expired.",
    reminders: "Reminder mails: payment reminders and back-in-stock mails",
    save: "Save",
    saved: "Your mail preferences are saved.",
    on: "You get reminder mails.",
    off: "You get no reminder mails.",
  },
  unsubscribe: {
    title: "Stop reminder mails",
    lead: "Stop the payment reminders and back-in-stock mails of your Gearhouse account. Receipts, shipping and refund mails still go.",
    confirm: "Stop reminder mails",
    done: "You will no longer get reminder mails. Receipts, shipping and refund mails still go.",
    profile: "Change this in your Profile",
    missing: "This unsubscribe link is incomplete. Open it from the mail again.",
  },
  badLink: "This unsubscribe link is not valid.",
  /** The footer line of an optional mail, before its link. */
  footer: "You get this mail because reminder mails are on for your Gearhouse account.",
  footerLink: "Stop reminder mails",
  /** A tracking number that links to its carrier's page (My Orders, Manage Orders; shared/carriers.ts). */
  tracking: {
    /** Before the linked number: the same words as orderMessages.dates.tracking. */
    label: (carrier: string) => `${carrier} tracking number`,
    newTab: "(opens the carrier's site in a new tab)",
  },
} as const;
