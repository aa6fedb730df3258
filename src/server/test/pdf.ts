import { execFile } from "node:child_process";

/**
 * A PDF's text as a reader extracts it: poppler's pdftotext (Debian poppler-utils, which .ci/run
 * installs), keeping the page's layout so a label and its value stay on one line. A file poppler
 * cannot read fails the call.
 */
export function pdfText(pdf: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile("pdftotext", ["-layout", "-enc", "UTF-8", "-", "-"], (error, stdout, stderr) => {
      if (error) reject(new Error(`pdftotext: ${error.message} ${stderr}`));
      else resolve(stdout);
    });
    child.stdin?.end(pdf);
  });
}
