import { config } from "zod/v4/core";

// The shop's Content-Security-Policy has no 'unsafe-eval', so zod's parsers compiled with
// `new Function` could never run here; left to find that out, zod tries once, and the browser
// reports the refused attempt as a CSP violation. Told first, it never tries.
config({ jitless: true });
