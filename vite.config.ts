import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { brotliCompressSync, gzipSync, constants as zlib } from "node:zlib";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { build, type ConfigEnv, defineConfig, type Plugin, type ResolvedConfig, type UserConfig } from "vite";
import { SLIDES } from "./src/client/features/home/slides.js";
import { paths } from "./src/client/lib/paths.js";
import { paymentsMode } from "./src/server/config.js";
import { testModeBanner } from "./src/server/features/payments/test-mode.js";
import { putFirstInBody } from "./src/server/lib/html.js";

const apiPort = process.env.API_PORT ?? "3001";

/**
 * `npm run dev` shows the test-mode banner as the built shop does (plugins/spa.ts puts it in the
 * pages it serves): the dev server serves index.html itself.
 */
function testModeBannerInDev(): Plugin {
  return {
    name: "gearhouse:test-mode-banner",
    apply: "serve",
    transformIndexHtml: (html) =>
      paymentsMode(process.env) === "sandbox" ? putFirstInBody(html, testModeBanner()) : html,
  };
}

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

/**
 * Pages visitors often open first, and what each needs before the app's own code would ask for
 * it: the route's lazily loaded module (as in app/router.tsx, with everything it imports), or the
 * image that is its largest paint.
 */
const LANDING_PAGES: { path: string; modules?: string[]; images?: string[] }[] = [
  { path: paths.home, images: [SLIDES[0]?.image ?? ""] },
  { path: paths.tools, modules: ["features/catalog/pages/products-page.tsx"] },
  { path: paths.login, modules: ["features/accounts/pages/login-page.tsx"] },
  { path: paths.registration, modules: ["features/accounts/pages/registration-page.tsx"] },
  { path: paths.passwordReset, modules: ["features/accounts/pages/password-reset-page.tsx"] },
  { path: paths.about, modules: ["features/content/pages/about-page.tsx"] },
  { path: paths.blogs, modules: ["features/content/pages/blogs-page.tsx"] },
  { path: paths.ique, modules: ["features/content/pages/ique-page.tsx"] },
];

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
}

/** The client build itself, not the server-side build of the prerenderer that it starts. */
const clientBuildOnly = (_config: UserConfig, env: ConfigEnv) => env.command === "build" && !env.isSsrBuild;

/**
 * Builds src/client/prerender.tsx for Node (its dependencies stay in node_modules, so the output
 * lives under it) and returns its `prerender(path)`.
 */
async function loadPrerenderer(config: ResolvedConfig): Promise<(pathname: string) => Promise<string>> {
  const outDir = path.resolve(import.meta.dirname, "node_modules/.cache/gearhouse-prerender");
  await build({
    configFile: config.configFile,
    mode: config.mode,
    logLevel: "warn",
    build: {
      ssr: "prerender.tsx",
      outDir,
      emptyOutDir: true,
      manifest: false,
      copyPublicDir: false,
      rolldownOptions: { output: { codeSplitting: true } },
    },
  });
  const module = (await import(pathToFileURL(path.join(outDir, "prerender.js")).href)) as {
    prerender: (pathname: string) => Promise<string>;
  };
  return module.prerender;
}

/**
 * Writes pages/<name>.html for each landing page: index.html with the page's own markup,
 * prerendered (prerender.tsx), so it shows before any script has run, and with preload links for
 * what the page needs, so the browser fetches it beside the app's code instead of after it. The
 * server sends these for their paths (plugins/spa.ts), and index.html for every other route.
 */
async function writeLandingPages(config: ResolvedConfig, outDir: string) {
  const manifest = JSON.parse(readFileSync(path.join(outDir, ".vite/manifest.json"), "utf8")) as Record<
    string,
    ManifestChunk
  >;
  const staticGraph = (key: string, into = new Set<string>()): Set<string> => {
    if (into.has(key)) return into;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} is no chunk of the build: update LANDING_PAGES in vite.config.ts`);
    into.add(key);
    for (const imported of chunk.imports ?? []) staticGraph(imported, into);
    return into;
  };
  const entry = staticGraph("index.html");
  // The entry's imports, each after what it imports: boot.ts runs them one task at a time, in the
  // order the browser would run them as one graph (dependencies first).
  const runOrder = (key: string, seen = new Set<string>(), order: string[] = []): string[] => {
    if (seen.has(key)) return order;
    seen.add(key);
    for (const imported of manifest[key]?.imports ?? []) runOrder(imported, seen, order);
    order.push(key);
    return order;
  };
  const steps = runOrder("index.html")
    .filter((key) => key !== "index.html")
    .map((key) => `/${manifest[key]?.file}`);
  const boot = manifest["boot.ts"]?.file;
  if (!boot) throw new Error("boot.ts is no entry of the build (build.rolldownOptions.input)");
  const html = readFileSync(path.join(outDir, "index.html"), "utf8");
  const root = /<div id="root">[\s\S]*<\/div>(\s*<\/body>)/;
  if (!root.test(html)) throw new Error('index.html has no <div id="root"> at the end of its body');
  // The app's code, which boot.ts starts once the page has painted instead of <head> loading it.
  const appScripts =
    /\n\s*<script type="module" crossorigin src="[^"]+"><\/script>|\n\s*<link rel="modulepreload" [^>]*>/g;
  const prerender = await loadPrerenderer(config);
  mkdirSync(path.join(outDir, "pages"), { recursive: true });
  for (const page of LANDING_PAGES) {
    // The entry and everything it imports, then the route's own module and its imports.
    const chunks = new Set([...entry, ...(page.modules ?? []).flatMap((key) => [...staticGraph(key)])]);
    const links = [
      ...(page.images ?? []).map(
        (src) => `<link rel="preload" as="image" href="${src}" fetchpriority="high">`,
      ),
    ];
    // React renders what belongs in <head> (the page's <title>, preloads of images it marks as
    // urgent) first; there it goes, so the page has its own title and no element twice.
    const rendered = await prerender(page.path);
    const [, hoisted = "", markup = ""] =
      /^((?:<title>[^<]*<\/title>|<link [^>]*\/>)*)([\s\S]*)$/.exec(rendered) ?? [];
    const title = /<title>[^<]*<\/title>/.exec(hoisted)?.[0];
    for (const link of hoisted.match(/<link [^>]*\/>/g) ?? []) {
      const href = /href="([^"]*)"/.exec(link)?.[1];
      if (!links.some((known) => known.includes(`href="${href}"`))) links.push(link);
    }
    links.push(`<script type="module" crossorigin src="/${boot}"></script>`);
    const files = [...chunks].map((key) => `/${manifest[key]?.file}`);
    const [entryFile, ...imported] = files;
    const name = page.path === paths.home ? "index" : page.path.slice(1);
    writeFileSync(
      path.join(outDir, "pages", `${name}.html`),
      html
        .replace(appScripts, "")
        .replace(/<title>[^<]*<\/title>/, (found) => title ?? found)
        .replace(/\n\s*<\/head>/, `\n    ${links.join("\n    ")}\n  </head>`)
        // A function, so "$" in the markup is taken literally.
        .replace(
          root,
          (_match, end: string) =>
            `<div id="root" data-prerendered="${page.path}" data-entry="${entryFile}" data-chunks="${imported.join(" ")}" data-steps="${steps.join(" ")}">${markup}</div>${end}`,
        ),
    );
  }
}

const COMPRESSIBLE = /\.(js|css|html|svg|json|txt|webmanifest)$/;

/**
 * Writes a Brotli (.br) and a gzip (.gz) copy beside every text file of the build, once, at the
 * highest levels; the server sends them to browsers that accept them instead of compressing on
 * every request.
 */
function precompress(outDir: string) {
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const file = path.join(dir, name);
      return statSync(file).isDirectory() ? walk(file) : [file];
    });
  for (const file of walk(outDir).filter((f) => COMPRESSIBLE.test(f))) {
    const bytes = readFileSync(file);
    // Below a packet, compression saves nothing worth a second file.
    if (bytes.length < 1024) continue;
    writeFileSync(
      `${file}.br`,
      brotliCompressSync(bytes, { params: { [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY } }),
    );
    writeFileSync(`${file}.gz`, gzipSync(bytes, { level: 9 }));
  }
}

/** After the client build: the landing pages, then compressed copies of everything (in that order). */
function finishBuild(): Plugin {
  let config: ResolvedConfig;
  return {
    name: "gearhouse:finish-build",
    apply: clientBuildOnly,
    configResolved(resolved) {
      config = resolved;
    },
    async closeBundle() {
      const outDir = path.resolve(config.root, config.build.outDir);
      await writeLandingPages(config, outDir);
      precompress(outDir);
    },
  };
}

/**
 * A build is always a production build: Vite would otherwise follow a NODE_ENV=development left in
 * the environment and ship React's development runtime (absolute source paths included), which
 * `npm start` would then serve. Set before Vite reads NODE_ENV, after the config hooks.
 */
const productionBuilds: Plugin = {
  name: "gearhouse:production-builds",
  enforce: "pre",
  config(_config, env) {
    if (env.command === "build") process.env.NODE_ENV = "production";
  },
};

export default defineConfig({
  root: "src/client",
  publicDir: "public",
  plugins: [
    productionBuilds,
    react(),
    tailwindcss(),
    sonnerWithoutStyleInjection(),
    testModeBannerInDev(),
    finishBuild(),
  ],
  resolve: {
    // zod in the browser must know the CSP forbids eval before it builds a schema (lib/zod.ts).
    alias: [{ find: /^zod$/, replacement: path.resolve(import.meta.dirname, "src/client/lib/zod.ts") }],
  },
  build: {
    outDir: "../../dist/client",
    emptyOutDir: true,
    manifest: true,
    target: "es2022",
    rolldownOptions: {
      // The app, and the starter of prerendered landing pages (boot.ts, used by writeLandingPages).
      input: {
        index: path.resolve(import.meta.dirname, "src/client/index.html"),
        boot: path.resolve(import.meta.dirname, "src/client/boot.ts"),
      },
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
            {
              // The app code every page runs before its first render (router, layout, providers and
              // what they import): one request instead of a dozen small ones, each of which costs
              // a round trip on a phone's connection.
              name: "app",
              // Not the entries (index.html, main.tsx, boot.ts): they stay the chunks the pages name.
              test: (id: string) =>
                /[\\/]src[\\/](client|shared)[\\/]/.test(id) &&
                !/[\\/](index\.html|main\.tsx|boot\.ts)(\?|$)/.test(id),
              tags: ["$initial"],
              priority: 5,
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
