/**
 * Serves the islands' bundles and the static files. The bundle is built in memory on the
 * first request that needs it (or at start-up via `warmIslands`) and cached for the life of
 * the process: a build is a pure function of the source files, so one per process is shared
 * by every app instance (tests start many servers in one process). Bundle files have content
 * hashes in their names and are served immutable; static files get a short cache.
 */
import { Hono } from "hono";
import { buildIslands, type IslandManifest } from "./build.ts";

let manifest: Promise<IslandManifest> | undefined;

/** The islands' build, started once per process. */
export function islandManifest(): Promise<IslandManifest> {
  manifest ??= buildIslands().catch((error) => {
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
