/**
 * The floors point down only (issue #23 §4): nothing under `domain/` or `actors/` imports from
 * `server/` (an actor gets its ports from server/start.ts), and `domain/` imports no actor.
 * The HTTP handlers are an edge (issue #39): nothing imports `server/api/` but the module that
 * mounts its routes, and the use cases (`server/usecases/`), which handlers, timers,
 * campaigns, channels and the conversation engine share, know no HTTP and no page.
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

/**
 * Files under `floor` (but those under a path of `except`) whose imports resolve into one of
 * `forbidden` (folders from the root, or bare package names such as "hono").
 */
async function offenders(floor: string, forbidden: string[], except: string[] = []): Promise<string[]> {
  const root = new URL("../", import.meta.url);
  const found: string[] = [];
  for await (const path of sources(new URL(floor, root).pathname)) {
    const file = path.slice(root.pathname.length);
    if (except.some((skip) => file === skip || file.startsWith(`${skip}/`))) continue;
    const text = await Deno.readTextFile(path);
    for (const match of text.matchAll(IMPORT)) {
      const spec = match[1] ?? match[2];
      const target = spec.startsWith(".") ? new URL(spec, `file://${path}`).pathname.slice(root.pathname.length) : spec;
      if (forbidden.some((top) => target === top || target.startsWith(`${top}/`))) found.push(`${file} imports ${target}`);
    }
  }
  return found;
}

/** Every folder of the product's own code (tests and benchmarks may reach any floor). */
const PRODUCT = ["actors", "domain", "islands", "routes", "server", "tools"];

Deno.test("nothing under actors/ or domain/ imports server/", async () => {
  assert.deepEqual([...await offenders("actors", ["server"]), ...await offenders("domain", ["server"])], []);
});

Deno.test("domain/ imports no actor", async () => {
  assert.deepEqual(await offenders("domain", ["actors"]), []);
});

Deno.test("nothing imports server/api/ but the module that mounts its routes", async () => {
  // server/app.ts mounts the areas (server/api/mod.ts). The API document (server/openapi/)
  // describes the routes from the schemas the handlers also parse with, which live in
  // domain/: it has no need of a handler's module, so it is held to the rule too.
  const found = [];
  for (const floor of PRODUCT) found.push(...await offenders(floor, ["server/api"], ["server/api", "server/app.ts"]));
  assert.deepEqual(found, []);
});

Deno.test("server/usecases/ imports no handler, no page, no island, no HTTP and none of its callers", async () => {
  // The edges that call the use cases (HTTP handlers, pages, channels, campaigns, the
  // conversation engine, the process's start) stand above them: a use case that imported one
  // would climb back up. Today the floor imports actors/, domain/ and server/deps.ts alone.
  const above = ["server/api", "server/pages", "server/openapi", "server/http", "server/channels", "server/campaigns"];
  const edges = ["server/conversation", "server/app.ts", "server/start.ts", "routes", "islands", "hono"];
  assert.deepEqual(await offenders("server/usecases", [...above, ...edges]), []);
});

Deno.test("islands/ run in the browser: no server/ or routes/, and from actors/ only types", async () => {
  // An island's bundle would pull the server's code (KV, Deno APIs) into the page; a type
  // import is erased at build, so a view's shape may be shared that way.
  assert.deepEqual(await offenders("islands", ["server", "routes"]), []);
  const root = new URL("../", import.meta.url);
  const values: string[] = [];
  for await (const path of sources(new URL("islands", root).pathname)) {
    const text = await Deno.readTextFile(path);
    for (const match of text.matchAll(/(?:^|\n)\s*import\s+(type\s)?[^;]*?from\s+["']([^"']+)["']/g)) {
      const target = match[2].startsWith(".") ? new URL(match[2], `file://${path}`).pathname.slice(root.pathname.length) : match[2];
      if (target.startsWith("actors/") && !match[1]) values.push(`${path.slice(root.pathname.length)} imports ${target}`);
    }
  }
  assert.deepEqual(values, []);
});

Deno.test("the rules above see what they look for", async () => {
  // A rule whose scan finds no file, or misreads a specifier, would pass forever.
  assert.ok((await offenders("server", ["server/api"])).some((f) => f.startsWith("server/app.ts imports server/api/")));
  assert.ok((await offenders("server/api", ["hono"])).length > 0);
  assert.ok((await offenders("server/usecases", ["actors"])).length > 0);
  assert.ok((await offenders("islands", ["actors"])).length > 0, "the islands' one type import from actors/ is seen");
});
