import { describe, expect, it } from "vitest";
import { accountMessages } from "../../../shared/messages/accounts.js";
import { pricingMessages } from "../../../shared/messages/pricing.js";
import { profileMessages } from "../../../shared/messages/profile.js";
import { setUpTestApp } from "../../test/app.js";
import { ORIGIN, signUp } from "../../test/users.js";

const ctx = setUpTestApp({}, { rateLimit: { max: 1000, windowSeconds: 60 } });

const call = (method: "GET" | "POST" | "PUT", cookie: string, payload?: object) =>
  ctx.app.inject({
    method,
    url: "/api/profile",
    headers: { cookie, origin: ORIGIN },
    ...(payload ? { payload } : {}),
  });

describe("profile", () => {
  it("shows name and email before a profile exists", async () => {
    const user = await signUp(ctx.app, { name: "Pat Player", phone: "5550111" });
    const res = await call("GET", user.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      name: "Pat Player",
      email: user.email,
      address: "",
      city: "",
      phone: "5550111",
      companyName: "",
      companyTaxId: "",
      exists: false,
    });
  });

  it("keeps a company name and tax ID, optional, and refuses a malformed tax ID", async () => {
    const user = await signUp(ctx.app);
    const fields = { address: "1 Loop Road", city: "Austin", phone: "5550123" };
    const created = await call("POST", user.cookie, {
      ...fields,
      companyName: " Clutch Gaming LLC ",
      companyTaxId: "US-12-345",
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ companyName: "Clutch Gaming LLC", companyTaxId: "US-12-345" });
    const refused = await call("PUT", user.cookie, { ...fields, companyTaxId: "<script>" });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors).toEqual([
      { path: "companyTaxId", message: pricingMessages.company.taxIdInvalid },
    ]);
    // Saved without them, they stay as they were.
    expect((await call("PUT", user.cookie, fields)).json()).toMatchObject({
      companyName: "Clutch Gaming LLC",
    });
  });

  it("creates once, then updates, and only the owner's", async () => {
    const a = await signUp(ctx.app);
    const b = await signUp(ctx.app);
    const created = await call("POST", a.cookie, {
      address: "1 Loop Road",
      city: "Austin",
      phone: "5550123",
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      address: "1 Loop Road",
      city: "Austin",
      phone: "5550123",
      exists: true,
    });

    const again = await call("POST", a.cookie, { address: "2 Loop Road", city: "Austin", phone: "5550123" });
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toBe(profileMessages.exists);

    const updated = await call("PUT", a.cookie, {
      address: "9 Fan Street",
      city: "Denver",
      phone: "5550999",
    });
    expect(updated.json()).toMatchObject({ address: "9 Fan Street", city: "Denver", phone: "5550999" });
    expect((await call("GET", b.cookie)).json().exists).toBe(false);
    expect((await call("GET", a.cookie)).json().city).toBe("Denver");
  });

  it("refuses an update before a profile exists", async () => {
    const user = await signUp(ctx.app);
    const res = await call("PUT", user.cookie, { address: "1 Loop Road", city: "Austin", phone: "5550123" });
    expect(res.statusCode).toBe(404);
    expect(res.json().detail).toBe(profileMessages.missing);
  });

  it("validates the fields and changes nothing on bad input", async () => {
    const user = await signUp(ctx.app);
    const res = await call("POST", user.cookie, { address: "", city: "Austin", phone: "abc" });
    expect(res.statusCode).toBe(400);
    const paths = res.json().errors.map((e: { path: string }) => e.path);
    expect(paths).toEqual(expect.arrayContaining(["address", "phone"]));
    expect((await call("GET", user.cookie)).json().exists).toBe(false);
  });

  it("takes an address of up to 4 lines, refusing more and control characters; a city is one line", async () => {
    const user = await signUp(ctx.app);
    const refused = async (fields: object, path: string, message: string) => {
      const res = await call("POST", user.cookie, {
        address: "1 Loop Road",
        city: "Austin",
        phone: "5550123",
        ...fields,
      });
      expect(res.statusCode, JSON.stringify(fields)).toBe(400);
      expect(res.json().errors).toEqual([{ path, message }]);
    };
    await refused({ address: "1\n2\n3\n4\n5" }, "address", accountMessages.addressTooManyLines);
    await refused({ address: "1 Loop Road\tSeller VAT ID" }, "address", accountMessages.addressControl);
    await refused({ address: "1 Loop Road\u2028PAID" }, "address", accountMessages.addressControl);
    await refused({ city: "Austin\nPAID - TOTAL DUE: $0" }, "city", accountMessages.cityOneLine);
    expect((await call("GET", user.cookie)).json().exists).toBe(false);
    const saved = await call("POST", user.cookie, {
      address: "Flat 2\r\n1 Loop Road\nBlock C\nNorth Wing",
      city: "Austin",
      phone: "5550123",
    });
    expect(saved.statusCode, saved.body).toBe(201);
  });

  it("answers 401 without a session", async () => {
    expect((await call("GET", "")).statusCode).toBe(401);
    expect((await call("POST", "", { address: "a", city: "b", phone: "5550123" })).statusCode).toBe(401);
  });
});
