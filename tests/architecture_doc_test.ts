/**
 * The architecture guide against the code (issue #37): a guide that names files which moved
 * or were renamed sends the next engineer looking for nothing, so the cheap checks run here.
 * - Every path the guide (docs/ARCHITECTURE.md) or the README writes in backticks exists: a
 *   file, a folder (written with a trailing `/`), a glob (`tests/sweep_*_test.ts`, at least
 *   one match), a template (`server/api/<area>.ts`: the folder before the placeholder), or a
 *   build output that .gitignore keeps out of the repository (`static/build/`).
 * - Every folder of `actors/` and `server/` is named in the guide, so a new area is described
 *   when it is added.
 * - The README links the guide and never sends a reader to `../shared`, which a clone lacks.
 */
import assert from "node:assert/strict";

const ROOT = new URL("../", import.meta.url);
const GUIDE = "docs/ARCHITECTURE.md";
/** Top-level folders of the repository a path in backticks may start with. */
const FOLDERS = ["actors", "bench", "docs", "domain", "islands", "routes", "server", "static", "tests", "tools"];
/** Files at the root a span may name. */
const ROOT_FILES = ["README.md", "deno.json", "package.json", "package-lock.json", "redocly.yaml"];
/** Folders never walked for globs: installed, generated or local data. */
const UNWALKED = new Set(["node_modules", ".git", "data"]);

const read = (path: string) => Deno.readTextFile(new URL(path, ROOT));

/** The inline code spans of a Markdown text (fenced blocks left out). */
function codeSpans(markdown: string): string[] {
  const prose = markdown.replace(/^```[^\n]*\n[\s\S]*?^```/gm, "");
  return [...prose.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]);
}

/** Whether a code span names a path of the repository (not a command, key or identifier). */
function isRepoPath(span: string): boolean {
  return ROOT_FILES.includes(span) || new RegExp(`^(${FOLDERS.join("|")})/[\\w.*<>/-]*$`).test(span);
}

/** Every file and folder of the repository (folders with a trailing `/`), from the root. */
async function repoEntries(): Promise<string[]> {
  const out: string[] = [];
  async function walk(dir: string): Promise<void> {
    for await (const entry of Deno.readDir(new URL(dir || ".", ROOT))) {
      if (UNWALKED.has(entry.name)) continue;
      const path = `${dir}${entry.name}`;
      if (entry.isDirectory) {
        out.push(`${path}/`);
        await walk(`${path}/`);
      } else out.push(path);
    }
  }
  await walk("");
  return out;
}

/** A glob (`*` within a name, `**` across folders) as a regular expression over repo paths. */
function globRegex(glob: string): RegExp {
  const name = (part: string) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "[^/]*");
  return new RegExp(`^${glob.split("**/").map(name).join("(?:[^/]+/)*")}$`);
}

/** The .gitignore entries (build outputs and local data a clone does not have). */
async function ignored(): Promise<string[]> {
  return (await read(".gitignore")).split("\n").map((l) => l.trim()).filter((l) => l && !l.startsWith("#"));
}

/** Why `path` names nothing in the repository, or undefined when it does. */
async function missing(path: string, entries: readonly string[], gitignore: readonly string[]): Promise<string | undefined> {
  const parts = path.split("/");
  const template = parts.findIndex((part) => part.includes("<"));
  if (template >= 0) {
    // A template names a file to be written: the folder it goes in must exist.
    const folder = parts.slice(0, template).join("/") + "/";
    return entries.includes(folder) ? undefined : `${path}: no folder ${folder}`;
  }
  if (path.includes("*")) {
    const pattern = globRegex(path);
    return entries.some((entry) => pattern.test(entry)) ? undefined : `${path}: matches nothing`;
  }
  if (gitignore.some((entry) => path === entry || path.startsWith(entry.endsWith("/") ? entry : `${entry}/`))) {
    return undefined; // a build output, present only once built
  }
  try {
    const stat = await Deno.stat(new URL(path, ROOT));
    if (path.endsWith("/") && !stat.isDirectory) return `${path}: not a folder`;
    return undefined;
  } catch {
    return `${path}: does not exist`;
  }
}

/** The spans of `file` that name repository paths, each once. */
async function pathsIn(file: string): Promise<string[]> {
  return [...new Set(codeSpans(await read(file)).filter(isRepoPath))];
}

Deno.test("every repository path docs/ARCHITECTURE.md and README.md name exists", async () => {
  const entries = await repoEntries();
  const gitignore = await ignored();
  const guide = await pathsIn(GUIDE);
  // A guide of this scope names far more; fewer means the span reading broke.
  assert.ok(guide.length > 150, `only ${guide.length} paths found in ${GUIDE}`);
  const problems: string[] = [];
  for (const file of [GUIDE, "README.md"]) {
    for (const path of await pathsIn(file)) {
      const why = await missing(path, entries, gitignore);
      if (why) problems.push(`${file}: ${why}`);
    }
  }
  assert.deepEqual(problems, []);
});

Deno.test("the path check refuses what does not exist", async () => {
  // A checker that accepted anything would pass forever.
  const entries = await repoEntries();
  const gitignore = await ignored();
  for (const path of ["actors/_runtime/no_such_kernel.ts", "server/no_such_area/", "tests/no_such_*_test.ts", "domain/**/no_such_*.ts", "nowhere/<name>.ts", "README.md/"]) {
    assert.ok(await missing(path, entries, gitignore), `${path} passed`);
  }
  for (const path of ["actors/_runtime/timer_wheel.ts", "server/usecases/", "tests/sweep_*_test.ts", "actors/**/*_test.ts", "server/api/<area>.ts", "static/build/"]) {
    assert.equal(await missing(path, entries, gitignore), undefined, path);
  }
  assert.ok(isRepoPath("server/usecases/") && isRepoPath("deno.json") && !isRepoPath("deno task build") && !isRepoPath("ctx.set"));
});

Deno.test("docs/ARCHITECTURE.md names every folder of actors/ and server/", async () => {
  const named = await pathsIn(GUIDE);
  const unnamed: string[] = [];
  for (const top of ["actors", "server"]) {
    for await (const entry of Deno.readDir(new URL(`${top}/`, ROOT))) {
      if (!entry.isDirectory) continue;
      const folder = `${top}/${entry.name}/`;
      if (!named.some((path) => path.startsWith(folder))) unnamed.push(folder);
    }
  }
  assert.deepEqual(unnamed, [], "describe each new folder in docs/ARCHITECTURE.md");
});

Deno.test("README.md links docs/ARCHITECTURE.md and sends nobody to ../shared", async () => {
  const readme = await read("README.md");
  assert.match(readme, /\]\(docs\/ARCHITECTURE\.md\)/);
  assert.doesNotMatch(readme, /\.\.\/shared/);
});
