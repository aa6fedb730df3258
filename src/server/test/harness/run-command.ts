import { spawn } from "node:child_process";

export interface Run {
  code: number | null;
  /** Standard output and standard error, in the order they arrived. */
  output: string;
}

/** Runs a command in a child process to its end. */
export function runCommand(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (c: Buffer) => {
      output += c.toString("utf8");
    });
    child.stderr.on("data", (c: Buffer) => {
      output += c.toString("utf8");
    });
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, output }));
  });
}
