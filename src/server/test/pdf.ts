import { execFile } from "node:child_process";

/**
 * A PDF's text as a reader extracts it: poppler's pdftotext (Debian poppler-utils, which .ci/run
 * installs). By default in the page's layout, a table's row on one line; `reading: true` gives it
 * in reading order instead, where a cell's wrapped lines follow each other. A file poppler cannot
 * read fails the call.
 */
export function pdfText(pdf: Buffer, { reading = false } = {}): Promise<string> {
  const mode = reading ? [] : ["-layout"];
  return new Promise((resolve, reject) => {
    const child = execFile("pdftotext", [...mode, "-enc", "UTF-8", "-", "-"], (error, stdout, stderr) => {
      if (error) reject(new Error(`pdftotext: ${error.message} ${stderr}`));
      else resolve(stdout);
    });
    child.stdin?.end(pdf);
  });
}
