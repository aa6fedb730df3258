/** Polls `done` until it holds; the limit is only there so that something broken cannot hang the run. */
export async function until(what: string, done: () => boolean | Promise<boolean>, limitMs = 120_000) {
  const deadline = Date.now() + limitMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`Still waiting after ${limitMs} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
