import { describe, expect, it } from "vitest";
import { changePasswordSchema } from "./accounts.js";
import { accountMessages as m } from "./messages/accounts.js";

/** The messages the form would show, by field. */
function errorsOf(values: { currentPassword: string; password: string; confirm: string }) {
  const parsed = changePasswordSchema.safeParse(values);
  if (parsed.success) return {};
  const errors: Record<string, string> = {};
  for (const issue of parsed.error.issues) errors[String(issue.path[0])] ??= issue.message;
  return errors;
}

describe("Change password's form", () => {
  it("takes the current password and a new one by the spec's rules, typed twice", () => {
    expect(
      errorsOf({ currentPassword: "Passw0rd!", password: "N3wPassword", confirm: "N3wPassword" }),
    ).toEqual({});
  });

  it("says the spec's texts", () => {
    expect(errorsOf({ currentPassword: "", password: "", confirm: "" })).toEqual({
      currentPassword: m.passwordRequired,
      password: m.passwordRequired,
    });
    expect(errorsOf({ currentPassword: "x", password: "Sh0rt", confirm: "Sh0rt" })).toEqual({
      password: m.passwordLength,
    });
    expect(errorsOf({ currentPassword: "x", password: "alllowercase1", confirm: "alllowercase1" })).toEqual({
      password: m.passwordPattern,
    });
    expect(
      errorsOf({
        currentPassword: "x",
        password: "Much2LongPassword12345",
        confirm: "Much2LongPassword12345",
      }),
    ).toEqual({
      password: m.passwordPattern,
    });
    expect(errorsOf({ currentPassword: "x", password: "N3wPassword", confirm: "N3wPassw0rd" })).toEqual({
      confirm: m.passwordsDiffer,
    });
  });
});
