// `npm run dev`: the API (restarting on change) behind the Vite dev server (hot reload). The page is
// served on PORT (3000 by default) and the API on API_PORT (PORT + 1 by default); the shop's address
// is the page's, so its links and its sign-in checks name the port the browser uses.
import { spawn } from "node:child_process";

const port = process.env.PORT ?? "3000";
const apiPort = process.env.API_PORT ?? String(Number(port) + 1);
const publicUrl = process.env.PUBLIC_URL ?? `http://localhost:${port}`;
const children = [
  spawn("npx", ["tsx", "watch", "--clear-screen=false", "src/server/main.ts"], {
    stdio: "inherit",
    env: { ...process.env, PORT: apiPort, PUBLIC_URL: publicUrl },
  }),
  spawn("npx", ["vite", "--port", port, "--strictPort"], {
    stdio: "inherit",
    env: { ...process.env, API_PORT: apiPort },
  }),
];
const stop = () => {
  for (const child of children) child.kill("SIGTERM");
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
for (const child of children) child.on("exit", stop);
