// Lighthouse (mobile defaults: simulated slow 4G and a 4× slower CPU) on Debian's Chromium,
// each page several times, medians reported. Runs the CLI in a child process per run, so every
// run has a fresh browser.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { ROOT } from "./processes.js";

export const LIGHTHOUSE_BUDGETS = {
  performance: 95,
  accessibility: 95,
  bestPractices: 95,
  lcpMs: 2_500,
  tbtMs: 200,
  cls: 0.1,
};

export interface LighthouseFigures {
  performance: number;
  accessibility: number;
  bestPractices: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
}

interface Report {
  runtimeError?: { message: string };
  categories: Record<"performance" | "accessibility" | "best-practices", { score: number | null }>;
  audits: Record<string, { numericValue?: number; score: number | null; title: string }>;
}

interface LighthouseRun {
  figures: LighthouseFigures;
  /** Titles of the audits that did not pass, for the report. */
  failedAudits: string[];
}

/** `headers` go with every request of the page (e.g. a session cookie, for the admin's screens). */
async function runOnce(url: string, headers?: Record<string, string>): Promise<LighthouseRun> {
  const cli = fileURLToPath(import.meta.resolve("lighthouse/cli/index.js"));
  const child = spawn(
    process.execPath,
    [
      cli,
      url,
      "--output=json",
      "--output-path=stdout",
      "--quiet",
      "--only-categories=performance,accessibility,best-practices",
      "--chrome-flags=--no-sandbox --headless=new",
      ...(headers ? [`--extra-headers=${JSON.stringify(headers)}`] : []),
    ],
    {
      cwd: ROOT,
      env: { ...process.env, CHROME_PATH: process.env.CHROME_PATH ?? "/usr/bin/chromium" },
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  let out = "";
  child.stdout.on("data", (chunk: Buffer) => {
    out += chunk.toString();
  });
  const code = await new Promise<number | null>((r) => child.once("exit", r));
  if (code !== 0) throw new Error(`lighthouse exited with ${code} on ${url}`);
  const report = JSON.parse(out) as Report;
  if (report.runtimeError) throw new Error(`lighthouse on ${url}: ${report.runtimeError.message}`);
  const score = (key: keyof Report["categories"]) => Math.round((report.categories[key].score ?? 0) * 100);
  const value = (audit: string) => report.audits[audit]?.numericValue ?? Number.NaN;
  return {
    figures: {
      performance: score("performance"),
      accessibility: score("accessibility"),
      bestPractices: score("best-practices"),
      lcpMs: value("largest-contentful-paint"),
      tbtMs: value("total-blocking-time"),
      cls: value("cumulative-layout-shift"),
    },
    failedAudits: Object.values(report.audits)
      .filter((a) => a.score !== null && a.score < 0.9)
      .map((a) => a.title),
  };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
};

/** Times a run that Lighthouse itself could not record (e.g. NO_NAVSTART) is made again. */
const RETRIES = 2;

/**
 * One run, made again when Lighthouse fails to record the page load: now and then its trace
 * misses the navigation start (NO_NAVSTART), a fault of the tool that says nothing of the page.
 */
async function runWithRetries(url: string, headers?: Record<string, string>): Promise<LighthouseRun> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await runOnce(url, headers);
    } catch (error) {
      if (attempt >= RETRIES) throw error;
      console.log(`[bench] ${url}: ${(error as Error).message}; running it again`);
    }
  }
}

/** The median of each figure over `runs` runs, and every audit that failed in any run. */
export async function lighthouse(
  url: string,
  runs: number,
  headers?: Record<string, string>,
): Promise<{ figures: LighthouseFigures; failedAudits: string[] }> {
  const results: LighthouseRun[] = [];
  for (let i = 0; i < runs; i++) results.push(await runWithRetries(url, headers));
  const pick = (key: keyof LighthouseFigures) => median(results.map((r) => r.figures[key]));
  return {
    figures: {
      performance: pick("performance"),
      accessibility: pick("accessibility"),
      bestPractices: pick("bestPractices"),
      lcpMs: pick("lcpMs"),
      tbtMs: pick("tbtMs"),
      cls: pick("cls"),
    },
    failedAudits: [...new Set(results.flatMap((r) => r.failedAudits))],
  };
}
