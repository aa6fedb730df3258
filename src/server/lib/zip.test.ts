import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { until } from "../test/until.js";
import { readZip } from "../test/zip-reader.js";
import { type ZipEntry, zipStream } from "./zip.js";

/** lib/zip.ts: an archive any reader takes, written as its entries are read. */

async function* chunks(parts: (string | Buffer)[]) {
  for (const part of parts) yield part;
}

async function archive(entries: ZipEntry[], modified?: Date): Promise<Buffer> {
  const out: Buffer[] = [];
  for await (const piece of zipStream(entries, modified)) out.push(piece);
  return Buffer.concat(out);
}

describe("zipStream", () => {
  it("writes entries that read back byte for byte, UTF-8 names, empty and large ones", async () => {
    const big = Array.from({ length: 2_000 }, (_, i) => `line ${i}: ${"Ünïcode ✓ ".repeat(i % 7)}\n`);
    const random = randomBytes(300_000);
    const zip = await archive([
      { name: "data.json", content: chunks(['{"a": ', "1}\n"]) },
      { name: "empty.txt", content: chunks([]) },
      { name: "grüße.csv", content: chunks(big) },
      { name: "bytes.bin", content: chunks([random.subarray(0, 1), random.subarray(1)]) },
    ]);
    const files = readZip(zip);
    expect([...files.keys()]).toEqual(["data.json", "empty.txt", "grüße.csv", "bytes.bin"]);
    expect(files.get("data.json")?.toString()).toBe('{"a": 1}\n');
    expect(files.get("empty.txt")?.length).toBe(0);
    expect(files.get("grüße.csv")?.toString()).toBe(big.join(""));
    expect(files.get("bytes.bin")?.equals(random)).toBe(true);
  });

  it("dates the entries in UTC, to the two seconds MS-DOS keeps", async () => {
    const zip = await archive([{ name: "a", content: chunks(["x"]) }], new Date("2026-11-27T09:35:21Z"));
    // The central directory's time and date (after the local header, 1 + 2 bytes of deflate, the descriptor).
    const central = zip.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    expect(zip.readUInt16LE(central + 12)).toBe((9 << 11) | (35 << 5) | 10);
    expect(zip.readUInt16LE(central + 14)).toBe(((2026 - 1980) << 9) | (11 << 5) | 27);
  });

  it.skipIf(!existsSync("/usr/bin/unzip"))("is what Info-ZIP's unzip -t calls a good archive", async () => {
    const zip = await archive([
      { name: "data.json", content: chunks(["{}".repeat(50_000)]) },
      { name: "orders.csv", content: chunks(['\uFEFF"a","b"\r\n']) },
    ]);
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), "zip-test-")), "t.zip");
    writeFileSync(file, zip);
    const said = execFileSync("/usr/bin/unzip", ["-t", file], { encoding: "utf8" });
    expect(said).toContain("No errors detected");
  });

  it("reads an entry only as fast as the archive is taken", async () => {
    let read = 0;
    async function* counted() {
      for (let i = 0; i < 1_000; i++) {
        read++;
        // Incompressible, so zlib gives out bytes as it takes them (text it would gather up to its window).
        yield randomBytes(4_096);
      }
    }
    const stream = zipStream([{ name: "a", content: counted() }]);
    await stream.next();
    await stream.next();
    expect(read).toBeLessThan(50);
    await stream.return(undefined);
  });

  it("ends with the content's error, and stops reading the content when left", async () => {
    async function* failing() {
      yield "some text";
      throw new Error("database away");
    }
    await expect(archive([{ name: "a", content: failing() }])).rejects.toThrow("database away");

    let finished = false;
    async function* endless() {
      try {
        for (let i = 0; ; i++) yield Buffer.alloc(65_536, i);
      } finally {
        finished = true;
      }
    }
    const stream = zipStream([{ name: "a", content: endless() }]);
    for (let i = 0; i < 3; i++) await stream.next();
    await stream.return(undefined);
    await until("the content's generator is ended", () => finished);
  });
});
