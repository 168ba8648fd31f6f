// Restores package-lock.json entries for other platforms' optional builds.
//
// Why: the npm registry reachable here lacks some optional, per-platform builds that `deno`
// and `msgpackr-extract` list (e.g. @deno/darwin-arm64@2.9.6). `npm install` then leaves them
// out of the lock, and `npm ci` refuses a lock that does not list every optional dependency,
// even one it would skip on this platform. Each entry written here carries its os/cpu, so
// `npm ci` skips it on Linux x64 without fetching it. Run after every `npm install`:
//   node tools/lock_optional.mjs
// tests/lockfile_test.ts fails when an entry is missing.
import { readFileSync, writeFileSync } from "node:fs";

const lockPath = new URL("../package-lock.json", import.meta.url);
const lock = JSON.parse(readFileSync(lockPath, "utf8"));

/** `@scope/name-<os>-<cpu>[-libc]` → its os and cpu. */
function platformOf(name) {
  const match = name.match(/[-/](darwin|linux|win32)-(arm64|x64|arm)(?:-(glibc|musl))?$/);
  if (!match) return undefined;
  const [, os, cpu, libc] = match;
  return { os: [os], cpu: [cpu], ...(libc ? { libc: [libc] } : {}) };
}

let added = 0;
for (const [path, entry] of Object.entries(lock.packages)) {
  for (const [dep, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const key = `node_modules/${dep}`;
    const platform = platformOf(dep);
    if (lock.packages[key] || !platform || !path) continue;
    lock.packages[key] = { version, license: "MIT", optional: true, ...platform };
    added++;
  }
}
lock.packages = Object.fromEntries(
  Object.entries(lock.packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b))),
);
writeFileSync(lockPath, JSON.stringify(lock, null, 2) + "\n");
console.log(`lock_optional: ${added} optional platform entr${added === 1 ? "y" : "ies"} restored`);
