// The browser's "zod": vite.config.ts points every import of "zod" here, so zod-jitless.ts runs
// before zod itself is evaluated or any schema of src/shared is built.
import "./zod-jitless.js";

export * from "zod/v4";
