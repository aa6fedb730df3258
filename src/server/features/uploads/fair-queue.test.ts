import { describe, expect, it } from "vitest";
import { FairQueue } from "./fair-queue.js";

/** Takes every job, one after another, as the image worker does. */
function drain<Job>(queue: FairQueue<string, Job>): Job[] {
  const taken: Job[] = [];
  for (let job = queue.take(); job !== undefined; job = queue.take()) taken.push(job);
  return taken;
}

describe("FairQueue", () => {
  it("keeps one owner's jobs in the order they came", () => {
    const queue = new FairQueue<string, string>();
    for (const job of ["a1", "a2", "a3"]) queue.push("a", job);
    expect(drain(queue)).toEqual(["a1", "a2", "a3"]);
    expect(queue.take()).toBeUndefined();
  });

  it("takes turns between owners, round robin", () => {
    const queue = new FairQueue<string, string>();
    for (const job of ["a1", "a2", "a3"]) queue.push("a", job);
    for (const job of ["b1", "b2"]) queue.push("b", job);
    queue.push("c", "c1");
    expect(drain(queue)).toEqual(["a1", "b1", "c1", "a2", "b2", "a3"]);
  });

  it("serves an owner who arrives behind a backlog right after the job under way", () => {
    const queue = new FairQueue<string, string>();
    for (let i = 1; i <= 10; i++) queue.push("a", `a${i}`);
    expect(queue.take()).toBe("a1");
    // b arrives while a1 runs: the owner served last rejoins the line only behind it.
    queue.push("b", "b1");
    expect(queue.take()).toBe("b1");
    queue.push("a", "a11");
    queue.push("b", "b2");
    expect(drain(queue)).toEqual(["a2", "b2", "a3", "a4", "a5", "a6", "a7", "a8", "a9", "a10", "a11"]);
  });

  it("starves no one when new owners keep arriving: each newcomer queues behind the backlog's owner", () => {
    const queue = new FairQueue<string, string>();
    for (let i = 1; i <= 3; i++) queue.push("a", `a${i}`);
    const taken: string[] = [];
    for (let i = 1; i <= 8; i++) {
      queue.push(`new${i}`, `n${i}`);
      taken.push(queue.take() ?? "");
    }
    expect(taken).toEqual(["a1", "n1", "n2", "a2", "n3", "n4", "n5", "a3"]);
  });
});
