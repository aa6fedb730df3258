// The reference of throughput (run.ts): a bare node:http server sending the bytes GET /api/products
// sent, its headers included (the security headers, ETag, cache-control, content type), run as its
// own process on the server's core like the shop. node:http adds Date, Connection and Keep-Alive,
// as it does for the shop. Args: port, body file, headers file (JSON). Prints "ready" once it
// listens.
import { readFileSync } from "node:fs";
import http from "node:http";

const [port = "0", bodyFile = "", headersFile = ""] = process.argv.slice(2);
const body = readFileSync(bodyFile);
const headers = { ...JSON.parse(readFileSync(headersFile, "utf8")), "content-length": body.length };
const server = http.createServer((_req, res) => {
  res.writeHead(200, headers);
  res.end(body);
});
server.listen(Number(port), "127.0.0.1", () => process.stdout.write("ready\n"));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
