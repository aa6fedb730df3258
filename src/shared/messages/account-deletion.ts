/**
 * Deleting one's own account (issue 34, item 4; docs/product.md, "Deleting your account"): the
 * profile's card and its confirm, the API's refusals, the mail that confirms it, and the name a
 * deleted customer's reviews show.
 */
export const accountDeletionMessages = {
  /** What a deleted customer's reviews show instead of their name. */
  formerCustomer: "Former customer",
  heading: "Delete my account",
  lead: "Your account and what it holds about you go for good. This cannot be undone.",
  erased:
    "Erased at once: your profile, phone, sign-ins and sessions, second factors, back-in-stock subscriptions, and unpaid orders (their units go back on sale and their payments are cancelled). Your reviews stay, signed “Former customer”.",
  kept: "Kept, as the tax law requires: paid orders with their invoices and credit notes, with the name, email, address and company they were invoiced to. We send no more mail about them.",
  again: "You can sign up again with the same email later: it will be a new, empty account.",
  password: "Your password",
  secondFactor:
    "Your account has a second factor: you will be asked for a code or your passkey before it goes.",
  noPassword:
    "Your account signs in with Google: sign out and in again, then delete it within 10 minutes (and prove your second factor if you have one).",
  submit: "Delete my account",
  confirmTitle: "Delete your account?",
  confirmText:
    "Your profile, sessions, subscriptions and unpaid orders are erased now; paid orders and their invoices are kept as the law requires. This cannot be undone.",
  confirm: "Delete for good",
  cancel: "Cancel",
  done: "Your account has been deleted. Thank you for shopping with Gearhouse.",
  /** Refusals. */
  passwordInvalid: "The password is not right.",
  passwordRequired: "Please enter your password.",
  freshSignInRequired:
    "For an account without a password, sign in again and delete it within 10 minutes of signing in.",
  adminRefused:
    "An admin account cannot be deleted here: ask another admin to take the admin role away first, then delete it.",
  rateLimited: "Too many attempts. Please wait a minute before you try again.",
  /** The mail to the address once the account is gone. */
  mail: {
    subject: "Your Gearhouse account was deleted",
    /** `when`: the moment, in UTC words. */
    lead: (when: string) => `Your Gearhouse account was deleted on ${when}, as you asked.`,
    kept: "We keep your paid orders, their invoices and credit notes for as long as the tax law requires, and nothing else. We will send you no more mail.",
    again: "You are welcome back any time: signing up with this address makes a new account.",
  },
} as const;
