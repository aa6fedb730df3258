/** Module resolution hook (typescript-6.mjs registers it): dependency-cruiser's TypeScript is TypeScript 6. */

/** Whether the importing file (a path or a file: URL) belongs to dependency-cruiser. */
export function fromCruiser(parent) {
  return /[\\/]node_modules[\\/]dependency-cruiser[\\/]/.test(parent ?? "");
}

/** `typescript` and its subpaths as the `typescript-6` package; any other specifier as it is. */
export function renamed(specifier) {
  return specifier === "typescript" || specifier.startsWith("typescript/")
    ? `typescript-6${specifier.slice("typescript".length)}`
    : specifier;
}

export async function resolve(specifier, context, nextResolve) {
  return nextResolve(fromCruiser(context.parentURL) ? renamed(specifier) : specifier, context);
}
