import { readFileSync } from "node:fs";
import path from "node:path";
import semver from "semver";
import { expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../../../..");
const read = (file: string) => JSON.parse(readFileSync(path.join(ROOT, file), "utf8"));

interface LockedPackage {
  version?: string;
  dev?: boolean;
  engines?: { node?: string } | string[];
}

it("every production dependency runs on the oldest Node.js that package.json's engines allows", () => {
  const oldest = semver.minVersion(read("package.json").engines.node)?.version;
  expect(oldest).toBeDefined();
  const packages: Record<string, LockedPackage> = read("package-lock.json").packages;
  const refusing = Object.entries(packages)
    .filter(([name, pkg]) => name !== "" && !pkg.dev)
    .flatMap(([name, pkg]) => {
      const range = Array.isArray(pkg.engines) ? undefined : pkg.engines?.node;
      return range && !semver.satisfies(oldest as string, range)
        ? [`${name}@${pkg.version}: node ${range}`]
        : [];
    });
  expect(refusing).toEqual([]);
});
