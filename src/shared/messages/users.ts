/** The admin's users and roles screens, and what the users routes answer. */
export const userMessages = {
  deleted: "User is deleted.",
  madeAdmin: "Made as admin",
  removedAdmin: "Removed from admin",
  notFound: "This user does not exist.",
  cannotRemoveSelf: "You cannot remove your own account. Ask another admin to do it.",
  lastAdminRemove: "The last admin cannot be removed. Make another user admin first.",
  lastAdminDemote: "The last admin cannot be demoted. Make another user admin first.",
  searchNeedsLetters: "Search for letters or digits of a name or email.",
  searchTooLong: (max: number) => `A search can be at most ${max} characters.`,
  /** Beside the signed-in admin's own name. */
  you: "(you)",
  caption: "All users",
  rolesCaption: "Users and their roles",
  name: "Name",
  email: "Email",
  phone: "Phone",
  role: "Role",
  roles: { user: "Customer", admin: "Admin" },
  action: "Action",
  remove: "Remove",
  removeFor: (name: string) => `Remove ${name}`,
  confirmTitle: "Remove this user?",
  confirmText: (name: string, email: string) =>
    `${name} (${email}) is signed out everywhere and can no longer sign in. Their orders stay on record.`,
  makeAdmin: "Make Admin",
  removeAdmin: "Remove Admin",
  makeAdminFor: (name: string) => `Make Admin: ${name}`,
  /** Make Admin asks first (issue 32): the role opens every order, user, refund and price. */
  makeAdminTitle: (name: string) => `Make ${name} an admin?`,
  makeAdminText: (email: string) =>
    `${email} will see every order and user, and may refund, ship, change products, prices and stock, remove users and make other admins.`,
  cancel: "Cancel",
  removeAdminFor: (name: string) => `Remove Admin: ${name}`,
  none: "No users yet.",
  noMatch: "No users match this search.",
  clearFilters: "Show all users",
  searchLabel: "Search users",
  searchPlaceholder: "Name or email",
  searchHint: (min: number) =>
    `Under ${min} characters: names, words of names and emails that start with them. ${min} or more: anywhere in them.`,
  roleFilter: "Role",
  allRoles: "All",
  roleChips: { user: "Customers", admin: "Admins" },
  count: (n: number, exact: boolean) =>
    `${exact ? "" : "More than "}${n.toLocaleString("en-US")} ${n === 1 && exact ? "user" : "users"}`,
  showing: (total: string, first: number, last: number) =>
    `${total}, showing ${first.toLocaleString("en-US")} to ${last.toLocaleString("en-US")}`,
  pages: "Pages of users",
  previous: "Previous page",
  next: "Next page",
} as const;
