/**
 * Reads CSV text (RFC 4180: commas, quoted cells with doubled quotes, CRLF or LF line ends, a UTF-8
 * byte order mark ignored) from a stream of chunks, one record at a time, so a file of any length
 * is read in the memory of one chunk and one record. Each record comes with the line it starts on
 * (a quoted cell may hold line breaks), for the reports that name bad lines.
 */
export interface CsvRecord {
  line: number;
  cells: string[];
}

export class CsvError extends Error {
  constructor(
    readonly kind: "quote" | "tooLong" | "tooLarge",
    readonly line: number,
  ) {
    super(`CSV ${kind} at line ${line}`);
  }
}

export interface CsvLimits {
  /** Characters one record may hold. */
  maxRecordChars: number;
  /** Bytes the whole text may hold. */
  maxBytes: number;
}

export async function* readCsv(
  chunks: AsyncIterable<Buffer | string>,
  limits: CsvLimits,
): AsyncGenerator<CsvRecord> {
  const decoder = new TextDecoder("utf-8");
  let bytes = 0;
  let line = 1;
  let recordLine = 1;
  let cells: string[] = [];
  let cellText = "";
  let recordChars = 0;
  let quotedCell = false;
  /** Inside quotes, a quote seen: the next character says whether it was doubled or closed the cell. */
  let quoteSeen = false;
  let afterCR = false;
  let first = true;

  const endCell = () => {
    cells.push(cellText);
    cellText = "";
    quotedCell = false;
    quoteSeen = false;
  };

  for await (const chunk of chunks) {
    bytes += typeof chunk === "string" ? Buffer.byteLength(chunk) : chunk.length;
    if (bytes > limits.maxBytes) throw new CsvError("tooLarge", line);
    let text = typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
    if (first && text.length > 0) {
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      first = false;
    }
    const records: CsvRecord[] = [];
    for (let i = 0; i < text.length; i++) {
      const ch = text[i] as string;
      if (afterCR) {
        afterCR = false;
        if (ch === "\n") continue;
      }
      if (quotedCell && !quoteSeen) {
        if (ch === '"') quoteSeen = true;
        else {
          if (ch === "\n" || (ch === "\r" && text[i + 1] !== "\n")) line++;
          cellText += ch;
        }
      } else if (quoteSeen && ch === '"') {
        cellText += '"';
        quoteSeen = false;
      } else if (ch === ",") {
        endCell();
      } else if (ch === "\r" || ch === "\n") {
        endCell();
        // An empty line (no cell but the empty one) is no record.
        if (!(cells.length === 1 && cells[0] === "")) records.push({ line: recordLine, cells });
        cells = [];
        recordChars = 0;
        line++;
        recordLine = line;
        afterCR = ch === "\r";
      } else if (ch === '"' && cellText === "" && !quoteSeen) {
        quotedCell = true;
      } else {
        // Text after a closing quote is kept as it is, as spreadsheets read it.
        quoteSeen = false;
        cellText += ch;
      }
      if (++recordChars > limits.maxRecordChars) throw new CsvError("tooLong", recordLine);
    }
    yield* records;
  }
  const tail = decoder.decode();
  if (tail) cellText += tail;
  if (quotedCell && !quoteSeen) throw new CsvError("quote", recordLine);
  if (cellText !== "" || cells.length > 0) {
    endCell();
    if (!(cells.length === 1 && cells[0] === "")) yield { line: recordLine, cells };
  }
}
