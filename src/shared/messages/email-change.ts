/** Change email (issue 34, item 2): Profile's card, the page the link opens, the mails and refusals. */

const minutesText = (minutes: number) => `${minutes} ${minutes === 1 ? "minute" : "minutes"}`;

export const emailChangeMessages = {
  /** Profile's Change email card. */
  card: {
    heading: "Change email",
    lead: "Type the new address and your current password. We email a link to the new address; your email changes only when you follow it, and we tell your current address.",
    current: (email: string) => `Your email now: ${email}`,
    newEmail: "New email",
    password: "Current password",
    submit: "Send confirmation link",
    /** `email`: the new address; `hours`: how long the link is valid. */
    sent: (email: string, hours: number) =>
      `Check the inbox of ${email} and follow the link we sent within ${hours} hours. Until then your email stays as it is.`,
  },
  /** The page the mailed link opens (/confirm-email?token=…). */
  confirm: {
    title: "Confirm your new email",
    lead: "Confirm to make this address the email of your Gearhouse account. You sign in with it from then on.",
    submit: "Confirm new email",
    done: (email: string) => `Your email is now ${email}. Sign in with it from now on.`,
    signIn: "Sign in",
    toProfile: "Go to your profile",
    noToken: "This page needs the link from the email we sent to your new address. Please open that link.",
  },
  /** Refusals, at the field they concern where there is one. */
  same: "This is already your email.",
  passwordInvalid: "The password is not correct.",
  noPassword:
    "Your account has no password (you sign in with Google). Set one first with Forgot Password? on the login page (the link goes to your current address), then change your email here.",
  guessesLimited: "Too many attempts to change the email. Please wait a minute and try again.",
  capped: (minutes: number) =>
    `You have asked to change your email several times within the hour. Please check the new inbox and its spam folder, or ask again in ${minutesText(minutes)}.`,
  linkInvalid:
    "This link has been used already, or a newer request replaced it. Ask again from your profile if your email has not changed.",
  linkExpired: "This link has expired. Ask again from your profile for a new one.",
  taken:
    "Another account uses this address now, so your email was not changed. Choose another address in your profile.",
  /** The mail to the new address, with the link. */
  linkMail: {
    subject: "Confirm your new Gearhouse email",
    lead: "Someone signed in to a Gearhouse account asked to make this address its email.",
    action: (hours: number) => `Confirm within ${hours} hours here:`,
    button: "Confirm your new email",
    notYou: "If it was not you, ignore this message: nothing changes without the link.",
  },
  /** To the new address when another account uses it already (the request is answered as usual). */
  inUseMail: {
    subject: "Someone tried to move a Gearhouse account to your email",
    lead: "Someone signed in to a Gearhouse account asked to make this address its email, but this address already has a Gearhouse account of its own. Nothing was changed.",
    ifYou: "If it was you, sign in with this address instead, or reset its password:",
    signIn: "Sign in",
    reset: "Reset your password",
  },
  /** To the old address once the change took effect. */
  changedMail: {
    subject: "Your Gearhouse email was changed",
    /** `masked`: the new address with most of its name hidden; `when`: the moment in UTC. */
    lead: (masked: string, when: string) =>
      `The email of your Gearhouse account was changed to ${masked} on ${when}. Mails about your account and your orders go there from now on, and every other browser and device was signed out.`,
    notYou: (contact: string) =>
      `If you did not make this change, write to us at ${contact} at once (replying to this mail works too): we will help you take the account back.`,
  },
} as const;
