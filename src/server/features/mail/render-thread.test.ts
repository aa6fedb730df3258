import { readdirSync, readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { mailOrder } from "../../test/mail-orders.js";
import { until } from "../../test/until.js";
import { mailRenderThread } from "./render-thread.js";
import { type OrderMailKind, renderMail } from "./templates.js";

const PUBLIC_URL = "http://localhost:3000";
const order = mailOrder({ name: "Ada Render", paidAt: null, transactionId: null });

/** The nice value of each thread of this process (Linux: /proc/self/task/<tid>/stat, field 19). */
function threadNiceValues(): number[] {
  return readdirSync("/proc/self/task").flatMap((tid) => {
    let stat: string;
    try {
      stat = readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
    } catch (error) {
      // A thread that ended between the listing and the read (an ended render thread) has none.
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw error;
    }
    // The fields after the name in parentheses, which may hold spaces: state is field 3.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return [Number(fields[19 - 3])];
  });
}

const renderer = mailRenderThread();
afterAll(() => renderer.close());

describe("the mail render thread", () => {
  it("renders each kind of mail as the server's own thread would, in a thread of the lowest priority", async () => {
    const niceBefore = threadNiceValues().filter((n) => n === 19).length;
    for (const kind of ["order_placed", "payment_receipt", "order_shipped"] as OrderMailKind[]) {
      const paid = kind === "order_placed" ? order : { ...order, paidAt: new Date("2026-11-24T12:00:00Z") };
      expect(await renderer.render(kind, paid, PUBLIC_URL, "GH-000123")).toEqual(
        await renderMail(kind, paid, PUBLIC_URL, "GH-000123"),
      );
    }
    expect(threadNiceValues().filter((n) => n === 19).length).toBe(niceBefore + 1);
  });

  it("renders many at once, each answer to its own request", async () => {
    const names = Array.from({ length: 20 }, (_, i) => `Customer ${i}`);
    const mails = await Promise.all(
      names.map((name) => renderer.render("order_placed", { ...order, name }, PUBLIC_URL)),
    );
    mails.forEach((mail, i) => {
      expect(mail.text).toContain(names[i]);
    });
  });

  it("refuses a mail it cannot render with the reason, and renders the next", async () => {
    await expect(renderer.render("no_such_kind" as OrderMailKind, order, PUBLIC_URL)).rejects.toThrow();
    expect((await renderer.render("order_placed", order, PUBLIC_URL)).subject).toBe(
      (await renderMail("order_placed", order, PUBLIC_URL)).subject,
    );
  });

  it("starts again for a mail after it was closed", async () => {
    await renderer.close();
    expect(threadNiceValues().filter((n) => n === 19)).toEqual([]);
    expect((await renderer.render("order_placed", order, PUBLIC_URL)).text).toContain(order.name);
  });

  it("fails a mail that takes longer than its limit, ends the thread, and renders the next in a new one", async () => {
    const stalling = mailRenderThread({
      // The thread's CPU time once it is ready (React loaded): a mail takes milliseconds of it, at
      // whatever priority and beside whatever load; the looping one reaches the limit.
      limitMs: 2_000,
      worker: {
        url: new URL("../../test/stalling-render-worker.ts", import.meta.url).href,
        name: "stalling-render-worker",
      },
    });
    try {
      expect((await stalling.render("order_placed", order, PUBLIC_URL)).text).toContain(order.name);
      const lowest = () => threadNiceValues().filter((n) => n === 19).length;
      const threads = lowest();
      await expect(
        stalling.render("order_placed", { ...order, name: "Loops Forever" }, PUBLIC_URL),
      ).rejects.toThrow("the mail took more than 2000 ms of CPU time to render");
      // The spinning thread is ended (not left to burn a core), and the next mail gets a new one.
      // A mail whose thread waits past the limit on the clock, using no CPU, is not failed.
      await until("the stuck thread ended", () => lowest() === threads - 1);
      expect(
        (await stalling.render("order_placed", { ...order, name: "Next Customer" }, PUBLIC_URL)).text,
      ).toContain("Next Customer");
      expect(
        (await stalling.render("order_placed", { ...order, name: "Waits Awhile" }, PUBLIC_URL)).text,
      ).toContain("Waits Awhile");
    } finally {
      await stalling.close();
    }
  });
});
