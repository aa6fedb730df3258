import { readFileSync } from "node:fs";
import type { Reporter, TestCase, TestResult } from "@playwright/test/reporter";

/**
 * Prints, for a journey that failed, what its page showed when it failed (Playwright's
 * error-context: the page's accessibility snapshot). CI keeps only the run's output, not
 * test-results/, so without this a failure seen once in CI cannot be read afterwards.
 */
export default class FailureContextReporter implements Reporter {
  onTestEnd(test: TestCase, result: TestResult): void {
    if (result.status === "passed" || result.status === "skipped") return;
    for (const attachment of result.attachments) {
      if (attachment.name !== "error-context" || !attachment.path) continue;
      let text: string;
      try {
        text = readFileSync(attachment.path, "utf8");
      } catch {
        continue;
      }
      const snapshot = text.indexOf("# Page snapshot");
      const shown = snapshot >= 0 ? text.slice(snapshot) : text;
      process.stdout.write(`\n── What the page showed when "${test.title}" failed ──\n${shown}\n`);
    }
  }

  printsToStdio(): boolean {
    return false;
  }
}
