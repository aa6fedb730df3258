import net from "node:net";

const handedOut = new Set<number>();

function systemPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * A port that nothing listens on now, chosen by the system from its ephemeral range (so two test
 * runs on one machine never ask for the same one), and never one this process was given before.
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = await systemPort();
    if (handedOut.has(port)) continue;
    handedOut.add(port);
    return port;
  }
}
