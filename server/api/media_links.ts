/**
 * Media of quick messages and bot options: stored with the messages area's media files
 * (`{dataDir}/company{id}/{file}`, actors/messages/media_files.ts) and shown as the same
 * signed, expiring `/media/...` URLs (domain/media_url.ts), so one route serves them all.
 */
import { removeMedia, saveMedia } from "../../actors/messages/media_files.ts";
import { signMediaUrl } from "../../domain/media_url.ts";
import type { AppDeps } from "../deps.ts";
import { log } from "../../actors/_runtime/log.ts";

/** Stores an uploaded file for the company; returns its stored file name. */
export async function saveMediaFile(deps: AppDeps, companyId: number, file: File): Promise<string> {
  return await saveMedia(deps.config.dataDir, companyId, file.name, file.stream(), file.type);
}

/** Removes stored files; failures are logged, never thrown (the record change already holds). */
export async function deleteMediaFiles(
  deps: AppDeps,
  companyId: number,
  fileNames: readonly string[],
): Promise<void> {
  for (const name of fileNames) {
    await removeMedia(deps.config.dataDir, companyId, name).catch((error) =>
      log.error(`Could not remove media ${name} of company ${companyId}`, { error })
    );
  }
}

/** The signed URL of a stored file, or null when there is none. */
export async function signedMediaUrl(
  deps: AppDeps,
  companyId: number,
  fileName: string | null,
): Promise<string | null> {
  return fileName ? await signMediaUrl(deps.secret, companyId, fileName) : null;
}
