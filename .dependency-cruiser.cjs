/**
 * The layers of src, checked by dependency-cruiser: `npm run lint:layers`, part of `npm run lint`
 * and so of `npm test`. Type-only imports count like any other. Each rule's comment is what the
 * check prints beside a violation; src/server/test/harness/layers.test.ts plants one of each.
 *
 *   src/shared          the contract: imports neither side
 *   src/server          app.ts and main.ts compose; plugins/ never import features/; a feature
 *                       reaches another only through its index.ts; lib/ imports neither
 *   src/client          app/ composes the features; a feature imports no other feature and not app/;
 *                       components/ (shared UI) and lib/ import neither
 */
const TEST = "[.]test[.]ts$";

/** @type {import("dependency-cruiser").IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-cycles",
      comment:
        "An import cycle, type-only imports included: move what both modules need into a third, or " +
        "let the caller choose (as app.ts and the routes do).",
      severity: "error",
      from: { path: "^src/" },
      to: { circular: true },
    },
    {
      name: "server-plugins-import-no-feature",
      comment:
        "Server plugins come before the features and serve them all: what a plugin needs of a " +
        "feature, app.ts hands it (as the session plugin gets readSession from accounts).",
      severity: "error",
      // A plugin's tests build the whole app, features included.
      from: { path: "^src/server/plugins/", pathNot: TEST },
      to: { path: "^src/server/features/" },
    },
    {
      name: "server-features-meet-through-index",
      comment:
        "A server feature imports another only through that feature's public module, " +
        "features/<name>/index.ts, which exports just what other features use.",
      severity: "error",
      from: { path: "^src/server/features/([^/]+)/" },
      to: {
        path: "^src/server/features/",
        pathNot: ["^src/server/features/$1/", "^src/server/features/[^/]+/index[.]ts$"],
      },
    },
    {
      name: "server-lib-imports-no-plugin-or-feature",
      comment: "src/server/lib is below the plugins and the features: it knows neither.",
      severity: "error",
      from: { path: "^src/server/lib/" },
      to: { path: "^src/server/(plugins|features)/" },
    },
    {
      name: "client-features-import-no-feature",
      comment:
        "A client feature never imports another: shared UI goes to src/client/components, shared " +
        "API calls and hooks to src/client/lib, and composing features to src/client/app.",
      severity: "error",
      from: { path: "^src/client/features/([^/]+)/" },
      to: { path: "^src/client/features/", pathNot: "^src/client/features/$1/" },
    },
    {
      name: "client-features-import-no-app",
      comment: "src/client/app composes the features; a feature never imports it back.",
      severity: "error",
      from: { path: "^src/client/features/" },
      to: { path: "^src/client/app/" },
    },
    {
      name: "client-shared-code-imports-no-feature",
      comment: "src/client/components and src/client/lib serve every feature and know none, nor the app.",
      severity: "error",
      from: { path: "^src/client/(components|lib)/" },
      to: { path: "^src/client/(features|app)/" },
    },
    {
      name: "shared-imports-neither-side",
      comment: "src/shared is the contract both sides import: it imports neither src/server nor src/client.",
      severity: "error",
      from: { path: "^src/shared/" },
      to: { path: "^src/(server|client)/" },
    },
    {
      name: "client-and-server-meet-in-shared",
      comment: "The client and the server share code only through src/shared.",
      severity: "error",
      from: { path: "^src/(client|server)/" },
      to: { path: "^src/(server|client)/", pathNot: "^src/$1/" },
    },
    {
      name: "imports-resolve",
      comment: "An import the check cannot resolve is an import it cannot check either.",
      severity: "error",
      from: { path: "^src/" },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    // TypeScript's own parser (scripts/layers/typescript-6.mjs), so `import type` counts too.
    tsPreCompilationDeps: true,
    doNotFollow: { path: "node_modules" },
    // Packages' subpath exports (better-auth/api, react-router/dom…), so that they resolve.
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      mainFields: ["module", "main", "types", "typings"],
    },
  },
};
