// Open-loop load at a fixed rate: request i is due at start + i / rate whatever happened before,
// and its latency counts from then, so a stall of the server delays no request out of the figures
// (coordinated omission). Requests go over a pool of keep-alive connections speaking plain HTTP/1.1
// on sockets: node:http's client costs several times more CPU per request, enough to make the
// generator the bottleneck at the rates latency at load needs (run.ts).
import net from "node:net";

export interface FixedRateOptions {
  url: string;
  requestsPerSecond: number;
  durationSeconds: number;
  /** Connections opened; a request due while all are busy waits for one, and that wait counts. */
  connections: number;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  /** Cookie headers used in turn, one per request. */
  cookies?: string[];
}

export interface FixedRateOutcome {
  latenciesMs: number[];
  failures: number;
  seconds: number;
  /**
   * The longest time the generator's own loop went without sending (it ticks every millisecond):
   * requests due meanwhile went late through no fault of the server's, and count as late.
   */
  generatorStallMs: number;
  /**
   * The highest latency of the requests due in each SLICE_MS of the counted run, in order: a
   * stretch of high slices is a stall of the server or of the machine, a tail spread over every
   * slice is the server's own.
   */
  sliceMaxMs: number[];
}

/** The width of the slices of sliceMaxMs. */
export const SLICE_MS = 100;

/**
 * Requests sent before this and not counted: for a second or so the code on both ends is still
 * being compiled and the connections opened, which shows as latency of up to a few hundred ms.
 */
const WARM_UP_S = 1.5;
const HEADER_END = Buffer.from("\r\n\r\n");
const CHUNKED_END = Buffer.from("0\r\n\r\n");

/** One keep-alive connection carrying one request at a time (also the uploads' client, load.ts). */
export class Connection {
  private pending: Buffer = Buffer.alloc(0);
  private done: ((status: number) => void) | undefined;
  readonly socket: net.Socket;

  constructor(host: string, port: number, onClose: () => void) {
    this.socket = net.connect({ host, port, noDelay: true });
    this.socket.on("data", (chunk) => this.receive(chunk));
    this.socket.on("error", () => this.finish(0));
    this.socket.on("close", () => {
      this.finish(0);
      onClose();
    });
  }

  get busy(): boolean {
    return this.done !== undefined;
  }

  send(request: Buffer, done: (status: number) => void): void {
    this.done = done;
    this.socket.write(request);
  }

  private finish(status: number): void {
    const done = this.done;
    this.done = undefined;
    this.pending = Buffer.alloc(0);
    done?.(status);
  }

  /** Waits for a whole answer: headers, then Content-Length bytes or the last chunk. */
  private receive(chunk: Buffer): void {
    this.pending = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    const headerEnd = this.pending.indexOf(HEADER_END);
    if (headerEnd < 0) return;
    const head = this.pending.subarray(0, headerEnd).toString("latin1");
    const status = Number(head.slice(9, 12));
    const bodyStart = headerEnd + HEADER_END.length;
    const length = /\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1];
    let complete: boolean;
    if (length !== undefined) complete = this.pending.length - bodyStart >= Number(length);
    else if (/\r\ntransfer-encoding:\s*chunked/i.test(head))
      complete = this.pending.subarray(bodyStart).includes(CHUNKED_END);
    else complete = true;
    if (complete) this.finish(status);
  }
}

export async function fixedRate(options: FixedRateOptions): Promise<FixedRateOutcome> {
  const url = new URL(options.url);
  const port = Number(url.port || 80);
  const interval = 1000 / options.requestsPerSecond;
  const warmUp = Math.round(options.requestsPerSecond * WARM_UP_S);
  const total = warmUp + Math.round(options.requestsPerSecond * options.durationSeconds);
  const body = options.body === undefined ? undefined : Buffer.from(options.body);
  const fixedHead =
    `${options.method ?? "GET"} ${url.pathname}${url.search} HTTP/1.1\r\nhost: ${url.host}\r\n` +
    Object.entries(options.headers ?? {})
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join("") +
    (body ? `content-length: ${body.length}\r\n` : "");
  const requestFor = (index: number): Buffer => {
    const cookie = options.cookies?.[index % options.cookies.length];
    const head = Buffer.from(`${fixedHead}${cookie ? `cookie: ${cookie}\r\n` : ""}\r\n`, "latin1");
    return body ? Buffer.concat([head, body]) : head;
  };

  const latenciesMs: number[] = [];
  const sliceMaxMs: number[] = [];
  let failures = 0;
  let answered = 0;
  const waiting: { index: number; due: number }[] = [];
  const idle: Connection[] = [];
  const connections: Connection[] = [];

  const dispatch = (connection: Connection) => {
    const next = waiting.shift();
    if (!next) {
      idle.push(connection);
      return;
    }
    connection.send(requestFor(next.index), (status) => {
      answered += 1;
      if (next.index >= warmUp) {
        const latency = performance.now() - next.due;
        latenciesMs.push(latency);
        const slice = Math.floor(((next.index - warmUp) * interval) / SLICE_MS);
        sliceMaxMs[slice] = Math.max(sliceMaxMs[slice] ?? 0, latency);
        if (status < 200 || status >= 300) failures += 1;
      }
      if (!connection.socket.destroyed) dispatch(connection);
    });
  };
  for (let i = 0; i < options.connections; i++) {
    const connection = new Connection(url.hostname, port, () => {
      const at = idle.indexOf(connection);
      if (at >= 0) idle.splice(at, 1);
    });
    connections.push(connection);
    idle.push(connection);
  }

  const start = performance.now();
  let sent = 0;
  let lastTick = start;
  let generatorStallMs = 0;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      if (now - start > WARM_UP_S * 1000) generatorStallMs = Math.max(generatorStallMs, now - lastTick);
      lastTick = now;
      const due = Math.min(total, Math.floor((now - start) / interval) + 1);
      for (; sent < due; sent++) {
        waiting.push({ index: sent, due: start + sent * interval });
        const connection = idle.pop();
        if (connection) dispatch(connection);
      }
      if (sent < total) setTimeout(tick, 1);
      else resolve();
    };
    tick();
  });
  while (answered < total && connections.some((c) => !c.socket.destroyed)) {
    await new Promise((r) => setTimeout(r, 5));
  }
  for (const connection of connections) connection.socket.destroy();
  failures += total - answered;
  return {
    latenciesMs,
    failures,
    seconds: (performance.now() - start) / 1000 - WARM_UP_S,
    generatorStallMs: Number(generatorStallMs.toFixed(1)),
    sliceMaxMs: Array.from(sliceMaxMs, (ms) => Number((ms ?? 0).toFixed(1))),
  };
}
