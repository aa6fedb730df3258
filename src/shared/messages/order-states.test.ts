import { describe, expect, it } from "vitest";
import { ORDER_STATUSES } from "../orders.js";
import { adminMessages } from "./admin.js";
import { orderMessages } from "./orders.js";

describe("an unpaid order's state", () => {
  it("has one name, the spec's, on My Orders, Manage Orders, its filter, the charts and the overview", () => {
    const notPaid = "Not Paid";
    expect(orderMessages.status.pending).toBe(notPaid);
    expect(adminMessages.orders.notPaid).toBe(notPaid);
    expect(adminMessages.orders.statuses.pending).toBe(notPaid);
    expect(adminMessages.overview.unpaid).toContain(notPaid);
  });

  it("is never named otherwise in a label of a state", () => {
    const labels = [
      ...ORDER_STATUSES.map((status) => orderMessages.status[status]),
      ...ORDER_STATUSES.map((status) => adminMessages.orders.statuses[status]),
      ...Object.values(adminMessages.overview as Record<string, unknown>).filter(
        (value): value is string => typeof value === "string",
      ),
    ];
    expect(labels.filter((label) => /unpaid/i.test(label))).toEqual([]);
  });
});
