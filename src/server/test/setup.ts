// Vitest runs this before every test file (vitest.config.ts `setupFiles`).
import { followTests } from "./current-test.js";

followTests();
