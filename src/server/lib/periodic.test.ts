import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { until } from "../test/until.js";
import { runInBackground, startPeriodicJob } from "./periodic.js";

describe("runInBackground", () => {
  it("starts the job when the app is ready, and at close stops it before giving back what it holds", async () => {
    const app = Fastify();
    const events: string[] = [];
    let release: () => void = () => {};
    const running = new Promise<void>((resolve) => {
      release = resolve;
    });
    runInBackground(app, {
      start: () => {
        events.push("started");
        return startPeriodicJob(
          0.01,
          async () => {
            events.push("run");
            await running;
            events.push("run ended");
          },
          "test",
        );
      },
      close: () => {
        events.push("closed");
      },
    });
    expect(events).toEqual([]);
    await app.ready();
    await until("the job's first run", () => events.includes("run"), 10_000);
    const closing = app.close();
    release();
    await closing;
    // The run under way ended before the job's resources were given back, and no run came after.
    expect(events).toEqual(["started", "run", "run ended", "closed"]);
  });

  it("gives back what the job holds when the job is off", async () => {
    const app = Fastify();
    let closed = false;
    runInBackground(app, {
      start: () => undefined,
      close: () => {
        closed = true;
      },
    });
    await app.ready();
    await app.close();
    expect(closed).toBe(true);
  });
});
