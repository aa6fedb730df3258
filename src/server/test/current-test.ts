import { beforeEach } from "vitest";

let timedOut: string | undefined;

/**
 * The name of a test of this file that Vitest stopped (timed out, or the run was cancelled), if
 * any. A stopped test's promise may still be running: the test app refuses every request from then
 * on (src/server/test/app.ts), so that work ends instead of running on into the next test and
 * changing what that one measures. The tests after it in the file fail with this name.
 */
export function stoppedTest(): string | undefined {
  return timedOut;
}

/** Registered for every test file (vitest.config.ts `setupFiles`). */
export function followTests() {
  beforeEach(({ signal, task }) => {
    signal.addEventListener("abort", () => {
      timedOut ??= task.name;
    });
  });
}
