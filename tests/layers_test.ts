/**
 * The floors point down only (issue #23 §4): nothing under `domain/` or `actors/` imports from
 * `server/` (an actor gets its ports from server/start.ts), and `domain/` imports no actor.
 * Reads every source file's import specifiers, so a new file is covered without a list.
 */
import assert from "node:assert/strict";

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

async function* sources(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) yield* sources(path);
    else if (/\.tsx?$/.test(entry.name)) yield path;
  }
}

/** Files under `floor` whose imports resolve into one of `forbidden` (top-level folders). */
async function offenders(floor: string, forbidden: string[]): Promise<string[]> {
  const root = new URL("../", import.meta.url);
  const found: string[] = [];
  for await (const path of sources(new URL(floor, root).pathname)) {
    const text = await Deno.readTextFile(path);
    for (const match of text.matchAll(IMPORT)) {
      const spec = match[1] ?? match[2];
      if (!spec.startsWith(".")) continue;
      const target = new URL(spec, `file://${path}`).pathname.slice(root.pathname.length);
      if (forbidden.some((top) => target.startsWith(`${top}/`))) {
        found.push(`${path.slice(root.pathname.length)} imports ${target}`);
      }
    }
  }
  return found;
}

Deno.test("nothing under actors/ or domain/ imports server/", async () => {
  assert.deepEqual([...await offenders("actors", ["server"]), ...await offenders("domain", ["server"])], []);
});

Deno.test("domain/ imports no actor", async () => {
  assert.deepEqual(await offenders("domain", ["actors"]), []);
});
