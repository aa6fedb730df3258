import { mkdirSync, readFileSync, renameSync, rmdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * `STRESS=1` (npm run test:stress) runs the full figures of README.md's Guarantees; every
 * `npm test` runs the quick variant, which exercises the same paths with fewer repetitions.
 */
const STRESS = process.env.STRESS === "1";

export const FIGURES = STRESS
  ? {
      buyers: 200,
      stockInOrders: 50,
      oversellRounds: 20,
      splitOversellRounds: 20,
      kills: 10,
      outageSeconds: 20,
      lifecycleRounds: 5,
      lifecycleOrders: 80,
      expiryCrowd: 400,
      pooledCustomers: 150,
      pooledOrders: 6_000,
      replicaLagRounds: 10,
    }
  : {
      buyers: 200,
      stockInOrders: 50,
      oversellRounds: 3,
      splitOversellRounds: 2,
      kills: 3,
      outageSeconds: 3,
      lifecycleRounds: 1,
      lifecycleOrders: 24,
      expiryCrowd: 120,
      pooledCustomers: 60,
      pooledOrders: 600,
      replicaLagRounds: 2,
    };

/**
 * A small seeded generator (mulberry32): the "random" kill moments of a run can be replayed by
 * setting RELIABILITY_SEED to the seed it printed.
 */
export function seededRandom(): { seed: number; next(): number } {
  const seed = Number(process.env.RELIABILITY_SEED ?? Math.floor(Math.random() * 2 ** 31));
  let state = seed;
  return {
    seed,
    next() {
      state = (state + 0x6d2b79f5) | 0;
      let t = Math.imul(state ^ (state >>> 15), 1 | state);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
    },
  };
}

/** The repository's git-ignored scratch folder: data directories of the shops the tests start. */
export const TEST_DATA_DIR = path.resolve(import.meta.dirname, "../../../../.test-data");
const RESULTS_FILE = path.join(TEST_DATA_DIR, "reliability-results.json");
const LOCK_DIR = `${RESULTS_FILE}.lock`;

function sleepSync(ms: number) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Test files run in parallel workers: a directory made atomically serialises their writes. */
function withResultsLock(work: () => void) {
  for (let tries = 0; ; tries += 1) {
    try {
      mkdirSync(LOCK_DIR);
      break;
    } catch {
      // A worker killed while holding the lock leaves it behind; writes take milliseconds.
      const age = Date.now() - (statSync(LOCK_DIR, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 10_000 || tries > 500) rmdirSync(LOCK_DIR);
      else sleepSync(20);
    }
  }
  try {
    work();
  } finally {
    rmdirSync(LOCK_DIR);
  }
}

/**
 * Prints the measured figures of one guarantee, so the test output can be quoted, and merges them
 * into .test-data/reliability-results.json under `section`.
 */
export function recordResults(section: string, figures: Record<string, unknown>) {
  const entry = { variant: STRESS ? "stress" : "quick", measuredAt: new Date().toISOString(), ...figures };
  console.log(`[reliability] ${section}\n${JSON.stringify(entry, null, 2)}`);
  mkdirSync(path.dirname(RESULTS_FILE), { recursive: true });
  withResultsLock(() => {
    let all: Record<string, unknown> = {};
    try {
      all = JSON.parse(readFileSync(RESULTS_FILE, "utf8"));
    } catch {
      // First result of the run, or an unreadable file from an interrupted one: start afresh.
    }
    all[section] = entry;
    writeFileSync(`${RESULTS_FILE}.tmp`, `${JSON.stringify(all, null, 2)}\n`);
    renameSync(`${RESULTS_FILE}.tmp`, RESULTS_FILE);
  });
}
