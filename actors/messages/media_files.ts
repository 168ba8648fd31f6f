/**
 * Media bytes live in files, not in KV (DESIGN §3): `{dataDir}/company{companyId}/{file}`.
 * A message stores only the file name; the HTTP layer serves it behind signed URLs
 * (server/media). File names are generated here and are safe path segments by construction.
 */
import { join } from "node:path";

/** What a stored file name may look like: no separators, no leading dot. */
const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,159}$/;

/** Whether `name` is a file name this module could have produced (guards path traversal). */
export function isSafeFileName(name: string): boolean {
  return SAFE_NAME.test(name) && !name.includes("..");
}

/** The folder of a company's media. */
export function companyMediaDir(dataDir: string, companyId: number): string {
  return join(dataDir, `company${companyId}`);
}

/** Absolute-or-relative path of a stored file; throws for a name that is not safe. */
export function mediaFilePath(dataDir: string, companyId: number, fileName: string): string {
  if (!isSafeFileName(fileName)) throw new Error(`Unsafe media file name ${fileName}`);
  return join(companyMediaDir(dataDir, companyId), fileName);
}

/** The original name reduced to safe characters, keeping its extension (at most 80 chars). */
export function cleanFileName(original: string): string {
  const base = original.split(/[\\/]/).pop() ?? "";
  const ascii = base.normalize("NFD").replace(/\p{M}/gu, "").replace(/[^A-Za-z0-9._-]+/g, "_")
    .replace(/\.{2,}/g, ".").replace(/^[._-]+/, "");
  const dot = ascii.lastIndexOf(".");
  const ext = dot > 0 ? ascii.slice(dot, dot + 11) : "";
  const stem = (dot > 0 ? ascii.slice(0, dot) : ascii).slice(0, 80 - ext.length);
  return `${stem || "file"}${ext}`;
}

/** MIME types of the extensions media files commonly have (both directions). */
const MIME_BY_EXT: Readonly<Record<string, string>> = {
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
  gif: "image/gif",
  webp: "image/webp",
  mp4: "video/mp4",
  "3gp": "video/3gpp",
  mov: "video/quicktime",
  webm: "audio/webm",
  ogg: "audio/ogg",
  oga: "audio/ogg",
  opus: "audio/opus",
  mp3: "audio/mpeg",
  m4a: "audio/mp4",
  aac: "audio/aac",
  wav: "audio/wav",
  pdf: "application/pdf",
  txt: "text/plain",
  csv: "text/csv",
  vcf: "text/vcard",
  zip: "application/zip",
  doc: "application/msword",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  xls: "application/vnd.ms-excel",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
};

/** The MIME type of a stored file, from its extension. */
export function mimeOfFile(name: string): string {
  const ext = name.slice(name.lastIndexOf(".") + 1).toLowerCase();
  return name.includes(".") ? MIME_BY_EXT[ext] ?? "application/octet-stream" : "application/octet-stream";
}

/** An extension for a MIME type (without the dot), or "" when none is known. */
function extensionOf(mimetype: string): string {
  const base = mimetype.split(";")[0].trim().toLowerCase();
  for (const [ext, mime] of Object.entries(MIME_BY_EXT)) if (mime === base) return ext;
  return "";
}

/**
 * A fresh unique file name for `original`: time, random part, cleaned name; an extension
 * from `mimetype` is added when the name has none (so the file is served with its type).
 */
export function newFileName(original: string, mimetype = "", now = Date.now()): string {
  const random = crypto.getRandomValues(new Uint8Array(6));
  const tag = Array.from(random, (b) => b.toString(16).padStart(2, "0")).join("");
  let name = cleanFileName(original);
  const ext = extensionOf(mimetype);
  if (!name.includes(".") && ext) name = `${name}.${ext}`;
  return `${now}-${tag}-${name}`;
}

/** Writes `data` as a new file of the company (creating its folder); returns the file name. */
export async function saveMedia(
  dataDir: string,
  companyId: number,
  original: string,
  data: Uint8Array | ReadableStream<Uint8Array>,
  mimetype = "",
): Promise<string> {
  await Deno.mkdir(companyMediaDir(dataDir, companyId), { recursive: true });
  const fileName = newFileName(original, mimetype);
  const path = mediaFilePath(dataDir, companyId, fileName);
  await Deno.writeFile(path, data, { createNew: true });
  return fileName;
}

/** Removes a stored file; a file already gone is fine. */
export async function removeMedia(dataDir: string, companyId: number, fileName: string) {
  try {
    await Deno.remove(mediaFilePath(dataDir, companyId, fileName));
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
}

/**
 * A new file with the same bytes as `fileName` (a hard link when the filesystem allows, else a
 * copy), so every message owns its file and deleting one message's media never breaks another's.
 */
export async function duplicateMedia(dataDir: string, companyId: number, fileName: string): Promise<string> {
  const source = mediaFilePath(dataDir, companyId, fileName);
  const original = fileName.replace(/^\d+-[0-9a-f]{12}-/, "");
  const copy = newFileName(original);
  const target = mediaFilePath(dataDir, companyId, copy);
  try {
    await Deno.link(source, target);
  } catch {
    await Deno.copyFile(source, target);
  }
  return copy;
}
