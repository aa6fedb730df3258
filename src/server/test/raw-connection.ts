import net from "node:net";
import { until } from "./until.js";

interface Answer {
  status: number;
  headers: Record<string, string>;
}

/**
 * A kept-alive connection of our own to the server on `port`, as a balancer holds one: requests
 * one after another, each answer's status and headers as sent, and whether the server ended it
 * (not this side). For the tests that see how a stopping server answers and closes connections.
 */
export function rawConnection(port: number) {
  const socket = net.connect(port, "127.0.0.1");
  let received = "";
  let endedByServer = false;
  socket.on("data", (chunk: Buffer) => {
    received += chunk.toString("latin1");
  });
  socket.on("end", () => {
    endedByServer = true;
  });
  socket.on("error", () => {});
  /** The answer at the start of `received`, once all of it has come (they carry a Content-Length). */
  const complete = (): Answer | undefined => {
    const headEnd = received.indexOf("\r\n\r\n");
    if (headEnd < 0) return undefined;
    const [statusLine = "", ...lines] = received.slice(0, headEnd).split("\r\n");
    const headers = Object.fromEntries(
      lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]),
    );
    if (received.length - headEnd - 4 < Number(headers["content-length"] ?? 0)) return undefined;
    return { status: Number(statusLine.split(" ")[1]), headers };
  };
  return {
    async send(
      method: string,
      path: string,
      headers: Record<string, string> = {},
      body = "",
    ): Promise<Answer> {
      received = "";
      const lines = Object.entries({ host: "127.0.0.1", ...headers }).map(([k, v]) => `${k}: ${v}\r\n`);
      if (body) lines.push(`content-length: ${Buffer.byteLength(body)}\r\n`);
      socket.write(`${method} ${path} HTTP/1.1\r\n${lines.join("")}\r\n${body}`);
      let answer: Answer | undefined;
      await until(`the answer to ${method} ${path}`, () => {
        answer = complete();
        return answer !== undefined || endedByServer;
      });
      if (!answer) throw new Error(`The server closed the connection without answering ${method} ${path}`);
      return answer;
    },
    /** Resolves once the server has ended the connection. */
    endedByServer: () => until("the server to end the connection", () => endedByServer),
    isOpen: () => !endedByServer,
    destroy: () => socket.destroy(),
  };
}
