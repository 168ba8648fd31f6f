/**
 * Bundles the islands (`islands/*.tsx`, one entry per island) with esbuild: ESM, code
 * splitting, minified, with a metafile. Each entry is a virtual module that imports the
 * island and hands it to the client hydration runtime (`islands/lib/hydrate.ts`), so island
 * files stay plain default-exported components. `deno task build` saves the output to
 * `static/build/` (not committed) and prints each island's first-load size; a server serves
 * that saved build when it is current, and otherwise builds the same bundle in memory on first
 * use (server/islands/mod.ts), so several servers or test processes never race on one folder.
 */
import * as esbuild from "esbuild";
import { gzipSync } from "node:zlib";
import { dirname, join, relative } from "node:path";
import { BUILD_DIR, type IslandAsset, type IslandManifest, islandNames, ROOT, savePrebuilt } from "./manifest.ts";

export type { IslandAsset, IslandManifest };

const virtualEntries: esbuild.Plugin = {
  name: "island-entries",
  setup(build) {
    build.onResolve({ filter: /^island:/ }, (args) => ({ path: args.path.slice(7), namespace: "island" }));
    build.onLoad({ filter: /.*/, namespace: "island" }, (args) => ({
      contents: `import C from "./islands/${args.path}.tsx";\n` +
        `import { hydrateIslands } from "./islands/lib/hydrate.ts";\n` +
        `hydrateIslands(${JSON.stringify(args.path)}, C);\n`,
      loader: "ts",
      resolveDir: ROOT,
    }));
  },
};

/**
 * Islands import pure rules from domain/ (permissions, plan flags, previews), and those files
 * also declare zod schemas at top level, which would pull all of zod (≈ 440 KB minified) into
 * the browser. Islands never parse with zod, so the browser bundle gets an inert `z` whose
 * schema builders chain to nothing and whose parse methods throw.
 */
const ZOD_STUB = `
const fail = () => { throw new Error("zod is not bundled in islands: parse on the server"); };
const PARSE = new Set(["parse", "safeParse", "parseAsync", "safeParseAsync", "decode", "encode"]);
const inert = new Proxy(function () {}, {
  get: (_t, key) => (typeof key === "string" && PARSE.has(key) ? fail : key === Symbol.toPrimitive ? () => "" : inert),
  apply: () => inert,
  construct: () => inert,
});
export const z = inert;
export default inert;
`;

const zodStub: esbuild.Plugin = {
  name: "zod-stub",
  setup(build) {
    build.onResolve({ filter: /^zod(\/.*)?$/ }, (args) =>
      args.pluginData?.realZod ? undefined : { path: args.path, namespace: "zod-stub" });
    build.onLoad({ filter: /.*/, namespace: "zod-stub" }, () => ({ contents: ZOD_STUB, loader: "js" }));
  },
};

/**
 * The forms' schemas are the exception to the stub: `domain/form_schemas.ts`, loaded by a
 * dynamic import (islands/ui/schemas.ts), and everything it imports are bundled again in a
 * namespace of their own where `zod` is the real package. They land in a lazy chunk that
 * only a page with a form loads, after its first paint.
 */
const FORM_SCHEMAS = /form_schemas\.ts$/;
/**
 * The browser's zod parses without compiling code: its JIT probes `new Function`, which the
 * pages' CSP refuses (script-src 'self', server/http/security_headers.ts) and reports. Set
 * before the first parse; the server's zod keeps its JIT.
 */
const JITLESS = `import "zod-jitless";\n`;
const formSchemas: esbuild.Plugin = {
  name: "form-schemas",
  setup(build) {
    build.onResolve({ filter: FORM_SCHEMAS }, (args) =>
      args.namespace === "file" && args.kind === "dynamic-import"
        ? { path: join(args.resolveDir, args.path), namespace: "forms" }
        : undefined);
    build.onResolve({ filter: /^\.\.?\//, namespace: "forms" }, (args) => ({
      path: join(args.resolveDir, args.path),
      namespace: "forms",
    }));
    // First among form_schemas.ts's imports, so it runs before any module there parses.
    build.onResolve({ filter: /^zod-jitless$/, namespace: "forms" }, () => ({ path: "zod-jitless", namespace: "forms" }));
    build.onResolve({ filter: /.*/, namespace: "forms" }, (args) =>
      build.resolve(args.path, { kind: args.kind, resolveDir: ROOT, pluginData: { realZod: true } }));
    build.onLoad({ filter: /^zod-jitless$/, namespace: "forms" }, () => ({
      contents: `import { config } from "zod";\nconfig({ jitless: true });\n`,
      loader: "js",
      resolveDir: ROOT,
    }));
    build.onLoad({ filter: /.*/, namespace: "forms" }, async (args) => ({
      contents: (FORM_SCHEMAS.test(args.path) ? JITLESS : "") + await Deno.readTextFile(args.path),
      loader: args.path.endsWith(".tsx") ? "tsx" : "ts",
      resolveDir: dirname(args.path),
    }));
  },
};

/** Builds every island in memory (`saveTo` also saves it there, as `deno task build` does) and returns the manifest. */
export async function buildIslands(options: { minify?: boolean; saveTo?: string } = {}): Promise<IslandManifest> {
  const names = await islandNames();
  const result = await esbuild.build({
    entryPoints: names.map((n) => ({ in: `island:${n}`, out: n })),
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "browser",
    target: ["es2022"],
    minify: options.minify ?? true,
    metafile: true,
    outdir: BUILD_DIR,
    entryNames: "[name]-[hash]",
    chunkNames: "chunk-[hash]",
    jsx: "automatic",
    jsxImportSource: "react",
    define: { "process.env.NODE_ENV": '"production"' },
    plugins: [virtualEntries, formSchemas, zodStub],
    logLevel: "silent",
    write: false,
    absWorkingDir: ROOT,
    nodePaths: [`${ROOT}node_modules`],
  });
  const outputs = result.metafile.outputs;
  const files = new Map<string, Uint8Array>();
  for (const out of result.outputFiles) files.set(baseName(out.path), out.contents);
  const gzipOf = (file: string) => gzipSync(files.get(baseName(file))!).length;
  const islands: Record<string, IslandAsset> = {};
  for (const [file, meta] of Object.entries(outputs)) {
    if (!meta.entryPoint?.startsWith("island:")) continue;
    const seen = new Set<string>();
    const walk = (f: string) => {
      if (seen.has(f)) return;
      seen.add(f);
      for (const imp of outputs[f]?.imports ?? []) if (imp.kind === "import-statement") walk(imp.path);
    };
    walk(file);
    // Stylesheets of the island's CSS imports, lazy chunks included (FullCalendar's on /schedules).
    const css = new Set<string>();
    const walkCss = (f: string, done = new Set<string>()) => {
      if (done.has(f)) return;
      done.add(f);
      const cssBundle = outputs[f]?.cssBundle;
      if (cssBundle) css.add(baseName(cssBundle));
      for (const imp of outputs[f]?.imports ?? []) if (imp.kind !== "file-loader") walkCss(imp.path, done);
    };
    walkCss(file);
    islands[meta.entryPoint.slice(7)] = {
      entry: baseName(file),
      files: [...seen].map(baseName),
      gzipBytes: [...seen].reduce((sum, f) => sum + gzipOf(f), 0),
      css: [...css],
    };
  }
  await esbuild.stop();
  const manifest = { islands, files };
  if (options.saveTo) await savePrebuilt(options.saveTo, manifest, sourcePaths(result.metafile));
  return manifest;
}

/**
 * The files the build read, from the project's root: the metafile's inputs without the
 * virtual modules (island entries, the zod stub, zod-jitless), whose form schemas' namespace
 * names its files by their absolute paths. Dependencies count as package-lock.json, which
 * fixes what `npm ci` installs (hashing their 2,700 files would add 0.3 s to every start).
 */
function sourcePaths(metafile: esbuild.Metafile): string[] {
  const paths = new Set<string>(["package-lock.json"]);
  for (const input of Object.keys(metafile.inputs)) {
    const form = /^forms:(\/.*)$/.exec(input);
    const path = form ? relative(ROOT, form[1]) : /^[\w-]+:/.test(input) ? undefined : input;
    if (path && !path.split("/").includes("node_modules")) paths.add(path);
  }
  return [...paths];
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

/** Gzip bytes of the JavaScript a page with these islands loads first (shared chunks once). */
export function pageGzipBytes(manifest: IslandManifest, names: string[]): number {
  const files = new Set(names.flatMap((n) => manifest.islands[n]?.files ?? []));
  let sum = 0;
  for (const f of files) sum += gzipSync(manifest.files.get(f)!).length;
  return sum;
}

/** The islands the /tickets page hydrates on first load (see routes/tickets.tsx). */
export const TICKETS_PAGE_ISLANDS = ["AppShell", "TicketsPage"];

if (import.meta.main) {
  const started = performance.now();
  const manifest = await buildIslands({ saveTo: BUILD_DIR });
  for (const [name, asset] of Object.entries(manifest.islands)) {
    console.log(`${name.padEnd(14)} ${(asset.gzipBytes / 1024).toFixed(1).padStart(7)} KB gzip (${asset.files.length} files)`);
  }
  const tickets = pageGzipBytes(manifest, TICKETS_PAGE_ISLANDS);
  console.log(`/tickets first load: ${(tickets / 1024).toFixed(1)} KB gzip JavaScript (limit 300 KB)`);
  console.log(`built in ${Math.round(performance.now() - started)} ms`);
  if (tickets > 300 * 1024) Deno.exit(1);
}
