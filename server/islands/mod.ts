/**
 * Serves the islands' bundles and the static files. The bundle is the one `deno task build`
 * saved (static/build, or the folder BALCAO_BUILD_DIR names) when it is there and current,
 * else built in memory with esbuild on the first request that needs it; either way once per
 * process, shared by every app instance (tests start many servers in one process). Bundle
 * files have content hashes in their names and are served immutable; static files get a
 * short cache.
 */
import { Hono } from "hono";
import { BUILD_DIR, type IslandManifest, loadPrebuilt } from "./manifest.ts";

let manifest: Promise<IslandManifest> | undefined;

/**
 * The builder's module, named by a variable: `deno compile` then leaves it (and esbuild, with
 * its native binary) out of a binary, which serves the saved build (README, "One binary").
 */
const BUILDER = "./build.ts";

async function buildOrLoad(): Promise<IslandManifest> {
  const saved = await loadPrebuilt(Deno.env.get("BALCAO_BUILD_DIR") || BUILD_DIR);
  if (saved) return saved;
  // Typed here rather than with `typeof import("./build.ts")`, which would name it to the compiler.
  const builder: { buildIslands(): Promise<IslandManifest> } = await import(BUILDER);
  return await builder.buildIslands();
}

/** The islands' build, loaded or made once per process. */
export function islandManifest(): Promise<IslandManifest> {
  manifest ??= buildOrLoad().catch((error) => {
    manifest = undefined;
    throw error;
  });
  return manifest;
}

const STATIC_ROOT = new URL("../../static/", import.meta.url).pathname;
const TYPES: Record<string, string> = {
  js: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
  json: "application/json; charset=utf-8",
  svg: "image/svg+xml",
  png: "image/png",
  ico: "image/x-icon",
  webp: "image/webp",
  mp3: "audio/mpeg",
  wav: "audio/wav",
};

function typeOf(name: string): string {
  return TYPES[name.slice(name.lastIndexOf(".") + 1)] ?? "application/octet-stream";
}

/** Routes for `/build/*` (bundles) and `/static/*` (CSS, locales, icons, sounds). */
export function assetRoutes(): Hono {
  const app = new Hono();
  app.get("/build/:file", async (c) => {
    const file = c.req.param("file");
    const bytes = (await islandManifest()).files.get(file);
    if (!bytes) return c.text("Not found", 404);
    return c.body(bytes.slice().buffer, 200, {
      "content-type": typeOf(file),
      "cache-control": "public, max-age=31536000, immutable",
    });
  });
  app.get("/static/*", async (c) => {
    const rel = decodeURIComponent(c.req.path.slice("/static/".length));
    if (rel.includes("..") || rel.startsWith("build/")) return c.text("Not found", 404);
    try {
      const bytes = await Deno.readFile(STATIC_ROOT + rel);
      const stat = await Deno.stat(STATIC_ROOT + rel);
      const etag = `"${stat.size.toString(36)}-${(stat.mtime?.getTime() ?? 0).toString(36)}"`;
      if (c.req.header("if-none-match") === etag) return c.body(null, 304);
      return c.body(bytes.buffer, 200, {
        "content-type": typeOf(rel),
        "cache-control": "public, max-age=300",
        etag,
      });
    } catch {
      return c.text("Not found", 404);
    }
  });
  return app;
}
