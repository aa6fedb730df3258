/** Signing up, in and out, Google sign-in and password resets: the texts of docs/product.md. */
import {
  ADDRESS_MAX_LINES,
  NAME_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
} from "../constants.js";

export const accountMessages = {
  nameRequired: "Name is required",
  emailRequired: "Email is required",
  emailInvalid: "Provide a valid email",
  passwordRequired: "Password is required",
  passwordLength: `Password must be contain ${PASSWORD_MIN_LENGTH} characters`,
  passwordPattern: "Password must be contain at least one uppercase,lowercase and number",
  phoneRequired: "Phone number is required",
  resetSent: "Please check your email sir !",
  phoneInvalid: "Provide a valid phone number",
  nameTooLong: `Name must be at most ${NAME_MAX_LENGTH} characters`,
  nameOneLine: "Name must be on one line, without line breaks or control characters",
  /** Profile and booking: an address's lines, and what else it may not hold. */
  addressTooManyLines: `Address must be at most ${ADDRESS_MAX_LINES} lines`,
  addressControl: "Address may hold line breaks, but no tabs or other control characters",
  cityOneLine: "City must be on one line, without line breaks or control characters",
  checkEmail: "Check your email: this address may already have an account.",
  invalidCredentials: "Invalid email or password.",
  rateLimited: "Too many attempts from your address. Please wait a minute and try again.",
  signInAccountRateLimited:
    "Too many sign-in attempts for this account. Please wait a minute and try again, or reset your password.",
  changePasswordRateLimited: "Too many attempts to change the password. Please wait a minute and try again.",
  /** Profile's Change password card. */
  changePassword: {
    heading: "Change password",
    lead: "Type your current password, then the new one twice. Every other browser and device signed in to your account is signed out, and we email you that the password changed.",
    currentPassword: "Current password",
    submit: "Change password",
    done: "Your password has been changed. Every other browser and device was signed out.",
  },
  /** The mail to the account's address once its password changed (auth-routes.ts, mailPasswordChanged). */
  passwordChangedMail: {
    subject: "Your Gearhouse password was changed",
    /** `when`: the moment, in UTC words. */
    lead: (when: string) => `The password of your Gearhouse account was changed on ${when}.`,
    othersEnded: "Every other browser and device signed in to your account was signed out.",
    notYou:
      "If you did not change it, reset your password now and check the sessions listed in your profile:",
    reset: "Reset your password",
  },
  googleNotConfigured:
    "Google sign-in is not available on this shop yet. Please sign in with your email and password.",
  resetLinkInvalid: "This reset link is invalid or has expired. Please ask for a new one.",
  passwordChanged: "Your password has been changed. Please sign in.",
  passwordsDiffer: "Passwords do not match",
  callbackInvalid: "The page to come back to must be a page of this shop.",
  alreadyVerified: "Your email is already verified.",
  verifyMailCapped: (minutes: number) =>
    `We have sent the verification link to your address several times within the hour. Please check your inbox and spam folder, or ask again in ${minutes} ${minutes === 1 ? "minute" : "minutes"}.`,
  googleFailed: "Google sign-in did not complete. Please try again, or sign in with your email and password.",
  googleNotLinked:
    "Google has not verified this email, so it cannot open your existing account. Sign in with your email and password instead.",
  form: {
    signInWithPasskey: "Sign in with a passkey",
    name: "Name",
    email: "Email",
    password: "Password",
    phone: "Phone",
    passwordHint: `${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters, with an uppercase letter, a lowercase letter and a number.`,
    signIn: "Sign In",
    signUp: "SIGN UP",
    google: "Sign In with Google",
    or: "or",
    sendResetLink: "Send reset link",
    setNewPassword: "Set a new password",
    setNewPasswordLead:
      "Choose a new password for your Gearhouse account. Any other device signed in to it is signed out.",
    newPassword: "New password",
    confirmPassword: "Confirm new password",
    savePassword: "Save new password",
    requestNewLink: "Ask for a new reset link",
    backToLogin: "Back to login",
  },
  /** The login, registration and password reset pages. */
  pages: {
    login: "Login",
    loginLead: "Sign in to book orders, pay by card and follow every order from your dashboard.",
    noAccount: "New to Gearhouse?",
    createAccount: "Create an account",
    forgotPassword: "Forget Password?",
    registration: "Sign Up",
    registrationLead:
      "Create your Gearhouse account to order parts in bulk, pay by card and review your gear.",
    haveAccount: "Already have an account?",
    loginLink: "Log in",
    passwordReset: "Password reset",
    passwordResetLead: "Forgot your password? We email you a link to choose a new one.",
  },
} as const;
