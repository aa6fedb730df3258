import { pipeline, Readable } from "node:stream";
import { crc32, createDeflateRaw } from "node:zlib";

/**
 * A ZIP archive written as it is read (PKWARE's APPNOTE 6.3): each entry's local header, its
 * content deflated as it comes (node:zlib), then a data descriptor with the CRC-32 and sizes, which
 * are known only at its end (flag bit 3); the central directory last. Nothing of an entry is held
 * but what zlib holds, so an archive of any size costs the same memory. Written here rather than
 * taken from a package: this is all the shop needs of ZIP (two entries, one download), and a
 * streaming writer is some hundred lines (the one package in node_modules that reads and writes ZIP,
 * fflate, comes with pdfkit and is not the shop's to rely on).
 *
 * Names are UTF-8 (flag bit 11). No ZIP64: an entry or archive past 4 GiB is refused (RangeError),
 * far beyond what the shop writes.
 */

export interface ZipEntry {
  /** The file's name in the archive. */
  name: string;
  /** Its content, read only as fast as the archive is taken. */
  content: AsyncIterable<string | Buffer>;
}

const LOCAL_HEADER = 0x04034b50;
const DATA_DESCRIPTOR = 0x08074b50;
const CENTRAL_HEADER = 0x02014b50;
const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
/** 2.0: deflate. */
const VERSION_NEEDED = 20;
/** Made on Unix (3) by 2.0, so that the external attributes below are file modes. */
const VERSION_MADE_BY = (3 << 8) | VERSION_NEEDED;
/** Bit 3: sizes and CRC in a data descriptor after the data; bit 11: the name is UTF-8. */
const FLAGS = (1 << 3) | (1 << 11);
const DEFLATE = 8;
/** A regular file, rw-r--r--. */
const FILE_MODE = 0o100644;
const MAX_32 = 0xffffffff;

/** A moment as MS-DOS date and time (two-second steps), in UTC: the archive reads the same anywhere. */
function dosDateTime(at: Date): { date: number; time: number } {
  const year = Math.max(1980, at.getUTCFullYear());
  return {
    date: ((year - 1980) << 9) | ((at.getUTCMonth() + 1) << 5) | at.getUTCDate(),
    time: (at.getUTCHours() << 11) | (at.getUTCMinutes() << 5) | (at.getUTCSeconds() >> 1),
  };
}

function within32(value: number, what: string): number {
  if (value > MAX_32) throw new RangeError(`ZIP: ${what} is past 4 GiB, which needs ZIP64`);
  return value;
}

interface Written {
  name: Buffer;
  crc: number;
  compressed: number;
  size: number;
  offset: number;
}

/** The deflated bytes of `content`, and its CRC-32 and size once it has all been read. */
async function* deflated(content: AsyncIterable<string | Buffer>, sum: { crc: number; size: number }) {
  async function* counted() {
    for await (const chunk of content) {
      const bytes = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
      if (bytes.length === 0) continue;
      sum.crc = crc32(bytes, sum.crc);
      sum.size += bytes.length;
      yield bytes;
    }
  }
  // One chunk at a time into zlib: the next is asked for only once zlib has taken this one.
  const input = Readable.from(counted(), { highWaterMark: 1 });
  const deflate = createDeflateRaw();
  // An error of the content (the database away mid-way) ends the deflate with it, so the loop
  // below throws it; leaving the loop early (the client gone) destroys both, and the content's
  // generator is returned, ending its reads.
  pipeline(input, deflate, () => {});
  try {
    for await (const out of deflate) yield out as Buffer;
  } finally {
    input.destroy();
  }
}

/**
 * The fields a local header and its central directory record share, in the same order from `at`:
 * version needed, flags, compression method, modification time and date.
 */
function writeEntryFields(buffer: Buffer, at: number, time: number, date: number) {
  buffer.writeUInt16LE(VERSION_NEEDED, at);
  buffer.writeUInt16LE(FLAGS, at + 2);
  buffer.writeUInt16LE(DEFLATE, at + 4);
  buffer.writeUInt16LE(time, at + 6);
  buffer.writeUInt16LE(date, at + 8);
}

/** The archive of `entries`, in their order, as a stream of bytes; `modified` dates every entry. */
export async function* zipStream(entries: Iterable<ZipEntry>, modified = new Date()): AsyncGenerator<Buffer> {
  const { date, time } = dosDateTime(modified);
  const written: Written[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, "utf8");
    const header = Buffer.alloc(30);
    header.writeUInt32LE(LOCAL_HEADER, 0);
    writeEntryFields(header, 4, time, date);
    // CRC-32 and sizes (14 to 25) stay 0: they follow the data, in its descriptor.
    header.writeUInt16LE(name.length, 26);
    header.writeUInt16LE(0, 28);
    const start = offset;
    yield Buffer.concat([header, name]);
    offset += header.length + name.length;

    const sum = { crc: 0, size: 0 };
    let compressed = 0;
    for await (const out of deflated(entry.content, sum)) {
      compressed += out.length;
      yield out;
    }
    offset += compressed;
    const descriptor = Buffer.alloc(16);
    descriptor.writeUInt32LE(DATA_DESCRIPTOR, 0);
    descriptor.writeUInt32LE(sum.crc >>> 0, 4);
    descriptor.writeUInt32LE(within32(compressed, entry.name), 8);
    descriptor.writeUInt32LE(within32(sum.size, entry.name), 12);
    yield descriptor;
    offset += descriptor.length;
    written.push({
      name,
      crc: sum.crc >>> 0,
      compressed,
      size: sum.size,
      offset: within32(start, "an offset"),
    });
  }

  const directory = written.map((entry) => {
    const record = Buffer.alloc(46);
    record.writeUInt32LE(CENTRAL_HEADER, 0);
    record.writeUInt16LE(VERSION_MADE_BY, 4);
    writeEntryFields(record, 6, time, date);
    record.writeUInt32LE(entry.crc, 16);
    record.writeUInt32LE(entry.compressed, 20);
    record.writeUInt32LE(entry.size, 24);
    record.writeUInt16LE(entry.name.length, 28);
    // Extra field, comment, disk number and internal attributes (30 to 37) stay 0.
    record.writeUInt32LE(FILE_MODE * 0x10000, 38);
    record.writeUInt32LE(entry.offset, 42);
    return Buffer.concat([record, entry.name]);
  });
  const directoryBytes = Buffer.concat(directory);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(END_OF_CENTRAL_DIRECTORY, 0);
  // This disk and the directory's (4 to 7) are 0.
  end.writeUInt16LE(written.length, 8);
  end.writeUInt16LE(written.length, 10);
  end.writeUInt32LE(directoryBytes.length, 12);
  end.writeUInt32LE(within32(offset, "the archive"), 16);
  end.writeUInt16LE(0, 20);
  yield Buffer.concat([directoryBytes, end]);
}
