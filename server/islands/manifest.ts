/**
 * The islands' manifest (what a page needs to load each island, and every output file), and
 * its copy on disk: `deno task build` saves the build to `static/build/` with a
 * `manifest.json`, and a server that finds it there serves it as it is, with no esbuild at
 * run time (a compiled binary has none). Nothing here imports esbuild.
 *
 * The saved manifest lists the SHA-256 of every source file the build read. Where those files
 * are on disk (a checkout), a server compares them and ignores a build older than the
 * sources, so an old `deno task build` never serves stale islands; a file it cannot read
 * (a binary carries no sources) proves nothing either way and is skipped.
 */
import { log } from "../../actors/_runtime/log.ts";
export const ROOT = new URL("../../", import.meta.url).pathname;
export const ISLANDS_DIR = `${ROOT}islands`;
/** Where `deno task build` writes the islands, and where a server looks for them. */
export const BUILD_DIR = `${ROOT}static/build`;
const MANIFEST_FILE = "manifest.json";

/** What the server needs to load an island: its entry file and every chunk it imports. */
export interface IslandAsset {
  /** Entry file name under /build/. */
  entry: string;
  /** Every file the entry loads statically (itself included), for modulepreload. */
  files: string[];
  /** Gzip bytes of `files` (the JavaScript a first load of a page with this island moves). */
  gzipBytes: number;
  /** The stylesheet of the CSS the island imports (a library's own, e.g. FullCalendar's), if any. */
  css: string[];
}

/** The build result: one asset per island name, and every output file's bytes by name. */
export interface IslandManifest {
  islands: Record<string, IslandAsset>;
  files: Map<string, Uint8Array>;
}

/**
 * What `manifest.json` holds: the manifest without the files' bytes, which sit beside it, and
 * the SHA-256 (hex) of each source file the build read, by path from the project's root.
 */
interface SavedManifest {
  islands: Record<string, IslandAsset>;
  files: string[];
  sources: Record<string, string>;
}

/** Island names: every `islands/*.tsx` file. */
export async function islandNames(): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(ISLANDS_DIR)) {
    if (entry.isFile && entry.name.endsWith(".tsx")) names.push(entry.name.slice(0, -4));
  }
  return names.sort();
}

async function sha256(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The SHA-256 of each of `paths` (from the project's root). */
async function hashSources(paths: string[]): Promise<Record<string, string>> {
  const hashes = await Promise.all(paths.map(async (path) => [path, await sha256(await Deno.readFile(ROOT + path))]));
  return Object.fromEntries(hashes.sort(([a], [b]) => a < b ? -1 : 1));
}

/** Writes `manifest` to `dir` (emptied first): its files, and `manifest.json` with the hashes of `sources`. */
export async function savePrebuilt(dir: string, manifest: IslandManifest, sources: string[]): Promise<void> {
  await Deno.remove(dir, { recursive: true }).catch(() => {});
  await Deno.mkdir(dir, { recursive: true });
  for (const [name, bytes] of manifest.files) await Deno.writeFile(`${dir}/${name}`, bytes);
  const saved: SavedManifest = { islands: manifest.islands, files: [...manifest.files.keys()], sources: await hashSources(sources) };
  await Deno.writeTextFile(`${dir}/${MANIFEST_FILE}`, JSON.stringify(saved));
}

/** Why a saved build is older than the sources on disk, or null when nothing shows it is. */
async function staleness(saved: SavedManifest): Promise<string | null> {
  // An island added since (one the build lacks); a binary lists only the islands it carries.
  const added = (await islandNames().catch(() => [])).find((name) => !(name in saved.islands));
  if (added) return `islands/${added}.tsx is new`;
  const changed = await Promise.all(Object.entries(saved.sources).map(async ([path, hash]) => {
    const bytes = await Deno.readFile(ROOT + path).catch(() => null);
    return bytes && await sha256(bytes) !== hash ? path : null;
  }));
  const path = changed.find((p) => p !== null);
  return path ? `${path} changed` : null;
}

/** The build saved in `dir`, or undefined when there is none or the sources changed since. */
export async function loadPrebuilt(dir: string): Promise<IslandManifest | undefined> {
  let saved: SavedManifest;
  try {
    saved = JSON.parse(await Deno.readTextFile(`${dir}/${MANIFEST_FILE}`));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
  const stale = await staleness(saved);
  if (stale) {
    log.warn(`Islands in ${dir} are older than the sources (${stale}): building them again`);
    return undefined;
  }
  const files = new Map(await Promise.all(saved.files.map(async (name) => [name, await Deno.readFile(`${dir}/${name}`)] as const)));
  return { islands: saved.islands, files };
}
