import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Gate, GateClosed } from "./search-gate.js";

/** A task that runs until `finish` is called. */
function held() {
  let finish: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  let started = false;
  return {
    task: async () => {
      started = true;
      await done;
      return "done";
    },
    finish,
    started: () => started,
  };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("Gate", () => {
  it("runs at most `concurrency` tasks, then the waiting ones in arrival order", async () => {
    const gate = new Gate({ concurrency: 2, queue: 5, maxWaitMs: 1_000 });
    const tasks = [held(), held(), held(), held()];
    const runs = tasks.map((t) => gate.run(t.task));
    await vi.advanceTimersByTimeAsync(0);
    expect(tasks.map((t) => t.started())).toEqual([true, true, false, false]);
    tasks[1]?.finish();
    await vi.advanceTimersByTimeAsync(0);
    expect(tasks.map((t) => t.started())).toEqual([true, true, true, false]);
    tasks[0]?.finish();
    tasks[2]?.finish();
    await vi.advanceTimersByTimeAsync(0);
    expect(tasks[3]?.started()).toBe(true);
    tasks[3]?.finish();
    expect(await Promise.all(runs)).toEqual(["done", "done", "done", "done"]);
  });

  it("refuses at once when the line is full", async () => {
    const gate = new Gate({ concurrency: 1, queue: 1, maxWaitMs: 1_000 });
    const running = held();
    const waiting = held();
    const first = gate.run(running.task);
    const second = gate.run(waiting.task);
    await expect(gate.run(async () => "never")).rejects.toEqual(new GateClosed("full"));
    running.finish();
    waiting.finish();
    expect(await Promise.all([first, second])).toEqual(["done", "done"]);
  });

  it("refuses a task that waited too long, and frees its place in line", async () => {
    const gate = new Gate({ concurrency: 1, queue: 1, maxWaitMs: 1_000 });
    const running = held();
    const first = gate.run(running.task);
    const late = gate.run(async () => "never");
    const refused = expect(late).rejects.toEqual(new GateClosed("waited"));
    await vi.advanceTimersByTimeAsync(1_000);
    await refused;
    // Its place is free again, and the turn after the running task goes to the next in line.
    const next = held();
    const third = gate.run(next.task);
    running.finish();
    await vi.advanceTimersByTimeAsync(0);
    expect(next.started()).toBe(true);
    next.finish();
    expect(await Promise.all([first, third])).toEqual(["done", "done"]);
  });

  it("frees the turn of a task that fails", async () => {
    const gate = new Gate({ concurrency: 1, queue: 0, maxWaitMs: 1_000 });
    await expect(gate.run(() => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(await gate.run(async () => "after")).toBe("after");
  });
});
