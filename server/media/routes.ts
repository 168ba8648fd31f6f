/**
 * `GET /media/{companyId}/{file}?exp&sig`: serves a company's media file to whoever holds a
 * signed URL (domain/media_url.ts); the URLs are handed out only inside authenticated responses and
 * events of that company. A bad or expired signature is 403; a file that does not exist in
 * that company's folder is 404.
 *
 * Files are user uploads: they are served with their type from the extension, `nosniff`,
 * and a sandboxing CSP; only images, audio, video and PDF are shown inline, anything else is
 * an attachment, so an uploaded HTML page never runs on our origin.
 */
import { Hono } from "hono";
import { isSafeFileName, mediaFilePath, mimeOfFile } from "../../actors/messages/media_files.ts";
import { AppError } from "../../domain/errors.ts";
import type { AppEnv } from "../deps.ts";
import { verifyMediaSignature } from "../../domain/media_url.ts";

/** Shown in the page; never SVG (a document that can script), whatever the type table learns later. */
const INLINE = /^(image\/(?!svg)|audio\/|video\/)|^application\/pdf$/;

const missing = () => new AppError("ERR_NOT_FOUND", { status: 404, message: "Media not found" });

/** The media sub-app, mounted at `/media`. */
export function mediaRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get("/:companyId/:file", async (c) => {
    const deps = c.get("deps");
    const companyId = Number(c.req.param("companyId"));
    const file = c.req.param("file");
    if (!Number.isSafeInteger(companyId) || companyId <= 0 || !isSafeFileName(file)) throw missing();
    const exp = Number(c.req.query("exp"));
    const sig = c.req.query("sig") ?? "";
    if (!await verifyMediaSignature(deps.secret, companyId, file, exp, sig)) {
      throw new AppError("ERR_NO_PERMISSION", { status: 403, message: "Invalid or expired media link" });
    }
    let handle: Deno.FsFile;
    try {
      handle = await Deno.open(mediaFilePath(deps.config.dataDir, companyId, file), { read: true });
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) throw missing();
      throw error;
    }
    const { size } = await handle.stat();
    const type = mimeOfFile(file);
    const maxAge = Math.max(0, Math.floor(exp - Date.now() / 1000));
    return new Response(handle.readable, {
      headers: {
        "content-type": type,
        "content-length": String(size),
        "content-disposition": `${INLINE.test(type) ? "inline" : "attachment"}; filename="${file}"`,
        "cache-control": `private, max-age=${maxAge}`,
        "x-content-type-options": "nosniff",
        "content-security-policy": "sandbox; default-src 'none'",
      },
    });
  });
  return app;
}
