// The catalog's CSV import at scale (issue 31), for bench:scale: a file of IMPORT_LINES new products
// streamed to POST /api/products/import, first as a dry run, then applied, then applied again (all
// unchanged). Each is timed; the server's resident memory is sampled from /proc every 50 ms while
// it runs, and its peak above the level before the upload is reported: the import reads the file as
// a stream, a batch at a time, so the peak stays flat whatever the file's length.
import { readFileSync } from "node:fs";
import { Readable } from "node:stream";

export const IMPORT_LINES = Number(process.env.BENCH_IMPORT_LINES ?? 100_000);

export interface ImportRun {
  run: "dry run" | "apply" | "apply again";
  seconds: number;
  /** The server's RSS before the upload and its peak during it, in MB. */
  rssBeforeMb: number;
  rssPeakMb: number;
  report: { created: number; changed: number; unchanged: number; bad: number };
}

const rssMb = (pid: number) => {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
};

function* csv(lines: number): Generator<Buffer> {
  // Buffers: fetch sends a stream of bytes, never of strings.
  yield Buffer.from("sku,name,category,price,quantity,description,threshold,image\n");
  const image = "/media/products/gale-120-high-static-pressure-fan.svg";
  let chunk = "";
  for (let i = 1; i <= lines; i++) {
    chunk += `BENCH-${String(i).padStart(7, "0")},"Bench fan ${i}, 120 mm",cooling-fans,${20 + (i % 50)},${i % 300},"A fan for the import bench; line ${i} of ${lines}.",${i % 3 === 0 ? "" : 25},${image}\n`;
    if (chunk.length > 64 * 1024) {
      yield Buffer.from(chunk);
      chunk = "";
    }
  }
  if (chunk) yield Buffer.from(chunk);
}

export async function importAtScale(base: string, cookie: string, serverPid: number): Promise<ImportRun[]> {
  const runs: ImportRun[] = [];
  for (const run of ["dry run", "apply", "apply again"] as const) {
    const rssBeforeMb = rssMb(serverPid);
    let rssPeakMb = rssBeforeMb;
    const sampler = setInterval(() => {
      rssPeakMb = Math.max(rssPeakMb, rssMb(serverPid));
    }, 50);
    const started = performance.now();
    try {
      const res = await fetch(`${base}/api/products/import?apply=${run !== "dry run"}`, {
        method: "POST",
        headers: { cookie, origin: base, "content-type": "text/csv" },
        body: Readable.toWeb(Readable.from(csv(IMPORT_LINES))) as ReadableStream,
        duplex: "half",
      } as RequestInit);
      if (res.status !== 200) throw new Error(`import ${run}: ${res.status} ${await res.text()}`);
      const report = (await res.json()) as ImportRun["report"];
      runs.push({
        run,
        seconds: Math.round((performance.now() - started) / 100) / 10,
        rssBeforeMb: Math.round(rssBeforeMb),
        rssPeakMb: Math.round(rssPeakMb),
        report: {
          created: report.created,
          changed: report.changed,
          unchanged: report.unchanged,
          bad: report.bad,
        },
      });
    } finally {
      clearInterval(sampler);
    }
  }
  return runs;
}
