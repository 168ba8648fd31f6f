/**
 * `npm ci` (the README's first step) refuses a lock that misses any optional dependency, even
 * one for another platform. The registry here lacks some of those builds, so `npm install`
 * drops them; tools/lock_optional.mjs restores them. This test catches a lock that lost them.
 */
import assert from "node:assert/strict";

Deno.test("package-lock.json lists every optional dependency, so npm ci accepts it", async () => {
  const lock = JSON.parse(await Deno.readTextFile(new URL("../package-lock.json", import.meta.url)));
  const packages: Record<string, { optionalDependencies?: Record<string, string> }> = lock.packages;
  const missing: string[] = [];
  for (const [path, entry] of Object.entries(packages)) {
    if (!path) continue;
    for (const dep of Object.keys(entry.optionalDependencies ?? {})) {
      if (!packages[`node_modules/${dep}`] && !packages[`${path}/node_modules/${dep}`]) missing.push(dep);
    }
  }
  assert.deepEqual(missing, [], "run `node tools/lock_optional.mjs` after `npm install`");
});
