/**
 * Every user-facing text of the specification, verbatim (SPEC.md §2, §5, §8),
 * plus Gearhouse's own texts. Pages and the server import from here only.
 */
export const messages = {
  notFound: "Oops! Sorry.....",
  order: {
    minimum: "Order minimum 10 units",
    outOfStock: "Out of stock",
    removed: "Order is is removed",
    confirmDelete: "Are you sure to delete this order?",
  },
  auth: {
    nameRequired: "Name is required",
    emailRequired: "Email is required",
    emailInvalid: "Provide a valid email",
    passwordRequired: "Password is required",
    passwordLength: "Password must be contain 8 characters",
    passwordPattern: "Password must be contain at least one uppercase,lowercase and number",
    phoneRequired: "Phone number is required",
    resetSent: "Please check your email sir !",
  },
  profile: {
    noUser: "No user is logged in",
  },
  review: {
    ratingRange: "Please a rating between 1 and 5",
  },
  payment: {
    success: "Congratulations ! Payment complete",
    transactionId: (id: string) => `Yor transaction id : ${id}`,
  },
  users: {
    deleted: "User is deleted.",
    madeAdmin: "Made as admin",
    removedAdmin: "Removed from admin",
  },
  common: {
    loadFailed: "Something went wrong while loading. Please try again.",
    noProducts: "No products match your search.",
  },
} as const;
