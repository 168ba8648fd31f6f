/**
 * The upload tabs of /settings (spec 001 §2.11, §5, §7) and the public reads of their files:
 *
 *   POST /settings/media-upload?ref={signup|login|interno|favicon-32x32|favicon-256x256|apple-touch-icon}
 *   POST /settings/doc-upload?ref={termos|privacidade}
 *   POST /settings/cert-upload?ref=certificadoEfi
 *   GET  /branding/files                 (super) what is on file
 *   GET  /branding/{destination}         the logo or icon, public (login page, favicons)
 *   GET  /branding/docs/{termos|privacidade}  the document, public (sign-up page)
 *
 * Uploads are super-only and capped per kind; a file is accepted by its bytes (PNG signature,
 * `%PDF-`, an ASN.1 SEQUENCE for .p12), not by its name alone. Refusals carry the spec's
 * wording in `fields` ('Escolha um arquivo!', 'Escolha um destino!', 'Use somente arquivos em
 * formato PNG!'…) beside an English message naming the value. Success answers
 * `{ message: "Arquivo anexado" }`, the text the spec's client looks for. The certificate is
 * never served (server/media/branding_files.ts).
 */
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { AppError } from "../../domain/errors.ts";
import { hasFileSignature, UPLOAD_KINDS, type UploadKind } from "../../domain/branding.ts";
import type { AppEnv } from "../deps.ts";
import { requireAuth, requirePermission } from "../auth/middleware.ts";
import { saveUpload, uploadInfo, uploadPath, uploadsOf } from "../media/branding_files.ts";
import { extensionOf, readUpload } from "./upload_field.ts";

/** The success message of an upload (the spec's client checks that the file was attached). */
export const UPLOAD_ATTACHED = "Arquivo anexado";

/** The spec's refusal texts (001 §5), by cause. */
export const UPLOAD_TEXTS = {
  noFile: "Escolha um arquivo!",
  noDestination: "Escolha um destino!",
  logo: "Use somente arquivos em formato PNG!",
  doc: "Use somente arquivos em formato PDF!",
  cert: "Use somente arquivos em formato p12!",
} as const;

const refused = (field: "file" | "ref", text: string, message: string, status = 400) =>
  new AppError("ERR_VALIDATION", { status, message, fields: { [field]: text } });

const missing = () => new AppError("ERR_NOT_FOUND", { status: 404, message: "No such branding file" });

/** Room for the multipart framing around the file itself. */
const FRAMING_BYTES = 16 * 1024;

/** The routes, mounted at `/`. */
export function settingUploadRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const auth = requireAuth();
  const superOnly = requirePermission("super:globalSettings");

  const paths: Record<UploadKind, string> = { logo: "media-upload", doc: "doc-upload", cert: "cert-upload" };
  for (const kind of Object.keys(paths) as UploadKind[]) {
    const spec = UPLOAD_KINDS[kind];
    const limit = bodyLimit({
      maxSize: spec.maxBytes + FRAMING_BYTES,
      onError: () => {
        throw refused("file", UPLOAD_TEXTS[kind], `Uploads of this kind are limited to ${spec.maxBytes} bytes`, 413);
      },
    });
    app.post(`/settings/${paths[kind]}`, auth, superOnly, limit, async (c) => {
      const ref = c.req.query("ref") ?? "";
      const { file } = await readUpload(c, ["file"]);
      if (!file || file.size === 0) throw refused("file", UPLOAD_TEXTS.noFile, "No file was sent in the field file");
      if (!spec.destinations.includes(ref)) {
        throw refused("ref", UPLOAD_TEXTS.noDestination, `Destination ${ref || "(none)"} is not one of ${spec.destinations.join(", ")}`);
      }
      if (file.size > spec.maxBytes) {
        throw refused("file", UPLOAD_TEXTS[kind], `File ${file.name} is ${file.size} bytes, over the ${spec.maxBytes} allowed`, 413);
      }
      const bytes = new Uint8Array(await file.arrayBuffer());
      if (extensionOf(file.name) !== spec.ext || !hasFileSignature(kind, bytes)) {
        throw refused("file", UPLOAD_TEXTS[kind], `File ${file.name} is not a ${spec.ext} file`);
      }
      const info = await saveUpload(c.get("deps").config.dataDir, kind, ref, bytes);
      return c.json({ message: UPLOAD_ATTACHED, ref, ...info });
    });
  }

  app.get("/branding/files", auth, superOnly, async (c) => {
    const dataDir = c.get("deps").config.dataDir;
    const [logo, doc, cert] = await Promise.all([uploadsOf(dataDir, "logo"), uploadsOf(dataDir, "doc"), uploadsOf(dataDir, "cert")]);
    return c.json({ logo, doc, cert });
  });

  app.get("/branding/docs/:ref", (c) => serve(c.get("deps").config.dataDir, "doc", c.req.param("ref"), c.req.header("if-none-match")));
  app.get("/branding/:destination", (c) => serve(c.get("deps").config.dataDir, "logo", c.req.param("destination"), c.req.header("if-none-match")));
  return app;
}

/**
 * A public file with a fixed safe type (it was checked on upload), `nosniff`, and an ETag
 * from its time and size: browsers revalidate (`no-cache`) and get 304 until a new upload.
 */
async function serve(dataDir: string, kind: "logo" | "doc", destination: string, ifNoneMatch?: string): Promise<Response> {
  if (!UPLOAD_KINDS[kind].destinations.includes(destination)) throw missing();
  const info = await uploadInfo(dataDir, kind, destination);
  if (!info) throw missing();
  const etag = `"${info.updatedAt.toString(36)}-${info.size.toString(36)}"`;
  const headers: Record<string, string> = {
    "content-type": UPLOAD_KINDS[kind].mime,
    "x-content-type-options": "nosniff",
    "cache-control": "no-cache",
    etag,
    "content-disposition": `inline; filename="${destination}${UPLOAD_KINDS[kind].ext}"`,
  };
  if (kind === "logo") headers["content-security-policy"] = "default-src 'none'; sandbox";
  if (ifNoneMatch === etag) return new Response(null, { status: 304, headers });
  let handle: Deno.FsFile;
  try {
    handle = await Deno.open(uploadPath(dataDir, kind, destination), { read: true });
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) throw missing();
    throw error;
  }
  const { size } = await handle.stat();
  return new Response(handle.readable, { headers: { ...headers, "content-length": String(size) } });
}
