import { crc32, inflateRawSync } from "node:zlib";

/**
 * Reads a whole ZIP archive (tests only, and the e2e journey): the entries the central directory
 * lists, each inflated and checked against its CRC-32 and size, and the local header checked
 * against the directory, as `unzip -t` does. Strict on purpose: anything lib/zip.ts writes
 * differently from what a reader expects fails here.
 */
export function readZip(archive: Buffer): Map<string, Buffer> {
  const endAt = archive.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (endAt < 0) throw new Error("no end of central directory");
  const count = archive.readUInt16LE(endAt + 10);
  const directorySize = archive.readUInt32LE(endAt + 12);
  let at = archive.readUInt32LE(endAt + 16);
  if (at + directorySize !== endAt) throw new Error("the central directory is not where the end says");
  const files = new Map<string, Buffer>();
  for (let i = 0; i < count; i++) {
    if (archive.readUInt32LE(at) !== 0x02014b50) throw new Error(`entry ${i}: no central header`);
    const flags = archive.readUInt16LE(at + 8);
    const method = archive.readUInt16LE(at + 10);
    const crc = archive.readUInt32LE(at + 16);
    const compressed = archive.readUInt32LE(at + 20);
    const size = archive.readUInt32LE(at + 24);
    const nameLength = archive.readUInt16LE(at + 28);
    const extra = archive.readUInt16LE(at + 30);
    const comment = archive.readUInt16LE(at + 32);
    const local = archive.readUInt32LE(at + 42);
    const name = archive.subarray(at + 46, at + 46 + nameLength).toString(flags & 0x800 ? "utf8" : "latin1");
    at += 46 + nameLength + extra + comment;

    if (archive.readUInt32LE(local) !== 0x04034b50) throw new Error(`${name}: no local header`);
    const localName = archive.subarray(local + 30, local + 30 + archive.readUInt16LE(local + 26));
    if (localName.toString("utf8") !== name) throw new Error(`${name}: the local header names another`);
    const dataAt = local + 30 + localName.length + archive.readUInt16LE(local + 28);
    const data = archive.subarray(dataAt, dataAt + compressed);
    const content = method === 8 ? inflateRawSync(data) : method === 0 ? Buffer.from(data) : null;
    if (!content) throw new Error(`${name}: method ${method}`);
    if (content.length !== size)
      throw new Error(`${name}: ${content.length} bytes, the directory says ${size}`);
    if (crc32(content) >>> 0 !== crc) throw new Error(`${name}: CRC-32 differs`);
    if (flags & 0x8) {
      const descriptor = dataAt + compressed;
      const signed = archive.readUInt32LE(descriptor) === 0x08074b50 ? 4 : 0;
      if (
        archive.readUInt32LE(descriptor + signed) !== crc ||
        archive.readUInt32LE(descriptor + signed + 4) !== compressed ||
        archive.readUInt32LE(descriptor + signed + 8) !== size
      )
        throw new Error(`${name}: the data descriptor differs from the directory`);
    }
    files.set(name, content);
  }
  return files;
}
