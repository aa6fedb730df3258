import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";

const apiPort = process.env.API_PORT ?? "3001";

/**
 * sonner injects its stylesheet as a <style> element at import time, which the shop's
 * Content-Security-Policy (style-src 'self') blocks. The same rules ship in our CSS bundle
 * (see index.css), so the injection is removed from the module.
 */
function sonnerWithoutStyleInjection(): Plugin {
  return {
    name: "gearhouse:sonner-without-style-injection",
    enforce: "pre",
    transform: {
      filter: { id: /[\\/]node_modules[\\/]sonner[\\/]dist[\\/]index\.mjs$/ },
      handler(code) {
        return { code: code.replace(/^__insertCSS\("(?:[^"\\]|\\.)*"\);?$/m, ""), map: null };
      },
    },
  };
}

export default defineConfig({
  root: "src/client",
  publicDir: "public",
  plugins: [react(), tailwindcss(), sonnerWithoutStyleInjection()],
  build: {
    outDir: "../../dist/client",
    emptyOutDir: true,
    manifest: true,
    target: "es2022",
    rolldownOptions: {
      // zod schema builders are pure: the client uses plain constants of src/shared (category
      // labels, starCount) without paying for the zod runtime of the schemas beside them.
      treeshake: { manualPureFunctions: ["z", "categorySchema"] },
      output: {
        codeSplitting: {
          groups: [
            {
              // The framework every page needs, cached apart from the app code that changes often.
              name: "framework",
              test: /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router|@tanstack[\\/]react-query|@tanstack[\\/]query-core)[\\/]/,
              priority: 10,
            },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      "/api": `http://localhost:${apiPort}`,
    },
  },
});
