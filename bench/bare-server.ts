// The reference of P1: a bare node:http server sending the bytes GET /api/products sent, with its
// content type, run as its own process on the server's core like the shop. Args: port, body file,
// content type. Prints "ready" once it listens.
import { readFileSync } from "node:fs";
import http from "node:http";

const [port = "0", bodyFile = "", contentType = "application/json"] = process.argv.slice(2);
const body = readFileSync(bodyFile);
const server = http.createServer((_req, res) => {
  res.writeHead(200, { "content-type": contentType, "content-length": body.length });
  res.end(body);
});
server.listen(Number(port), "127.0.0.1", () => process.stdout.write("ready\n"));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
