/**
 * Loaded with `node --import` before dependency-cruiser (npm run lint:layers). dependency-cruiser
 * reads TypeScript through the compiler's JavaScript API, which the project's compiler, TypeScript 7
 * (a native binary), no longer has. This gives dependency-cruiser, and nothing else, TypeScript 6's
 * (the devDependency `typescript-6`): its `import("typescript")` through the resolve hook in
 * typescript-6-hooks.mjs, its `require("typescript/package.json")` (the version check) here.
 * Should this stop working, the check would see no .ts file at all: the planted violations of
 * src/server/test/harness/layers.test.ts then pass the check, and that test fails.
 */
import Module, { register } from "node:module";
import { fromCruiser, renamed } from "./typescript-6-hooks.mjs";

register("./typescript-6-hooks.mjs", import.meta.url);

const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, parent, ...rest) {
  const request6 = fromCruiser(parent?.filename) ? renamed(request) : request;
  return resolveFilename.call(this, request6, parent, ...rest);
};
