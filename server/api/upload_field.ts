/**
 * Reading one uploaded file and the other fields of a multipart body (contact import,
 * quick-message media, bot-option media). Extension checks use the spec's lists.
 */
import type { Context } from "hono";
import { AppError } from "../../domain/errors.ts";
import { jsonObjectOf } from "../http/validate.ts";

/** Largest upload accepted by these endpoints (16 MB, WhatsApp's media ceiling for most types). */
export const MAX_UPLOAD_BYTES = 16 * 1024 * 1024;

/** A multipart body split into its first file (of `names`) and its text fields. */
export interface Upload {
  file?: File;
  fields: Record<string, unknown>;
}

/** Parses a multipart body; a JSON body gives fields and no file. */
export async function readUpload(c: Context, names = ["file", "medias", "media"]): Promise<Upload> {
  const type = c.req.header("content-type") ?? "";
  if (!type.includes("multipart/form-data")) {
    return { fields: jsonObjectOf(await c.req.text()) };
  }
  const raw = await c.req.parseBody({ all: true });
  const fields: Record<string, unknown> = {};
  let file: File | undefined;
  for (const [key, value] of Object.entries(raw)) {
    const values = Array.isArray(value) ? value : [value];
    const files = values.filter((v): v is File => v instanceof File);
    if (files.length && names.includes(key)) file ??= files[0];
    else if (!files.length) fields[key] = value;
  }
  if (file && file.size > MAX_UPLOAD_BYTES) {
    throw new AppError("ERR_VALIDATION", {
      status: 413,
      message: `File ${file.name} is ${file.size} bytes, over the ${MAX_UPLOAD_BYTES} allowed`,
    });
  }
  return { file, fields };
}

/** The lower-case extension of a file name, with its dot ("" when none). */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(dot).toLowerCase() : "";
}

/** Throws a 400 naming the file unless its extension is one of `allowed`. */
export function requireExtension(file: File, allowed: readonly string[]): void {
  const ext = extensionOf(file.name);
  if (!allowed.includes(ext)) {
    throw new AppError("ERR_VALIDATION", {
      status: 400,
      message: `File ${file.name} has type ${ext || "(none)"}; allowed: ${allowed.join(" ")}`,
      fields: { file: `Allowed: ${allowed.join(" ")}` },
    });
  }
}
