/**
 * The platform's uploaded files (spec 001 §2.11): PNG logos and icons, the PDF terms and
 * privacy policy, and the payment provider's .p12 certificate, under the media folder:
 *
 *   {dataDir}/platform/branding/{destination}.png   served publicly (GET /branding/…)
 *   {dataDir}/platform/docs/{termos|privacidade}.pdf served publicly (GET /branding/docs/…)
 *   {dataDir}/platform/private/{certificadoEfi}.p12 never served; read by the billing side
 *
 * One file per destination: a new upload replaces the old one atomically (written aside,
 * then renamed), and its modification time versions the public URLs so browsers fetch it
 * again. Company media lives in `company{id}` folders beside these, and the media route
 * serves only those, so nothing here is reachable through a signed media link.
 */
import { join } from "node:path";
import type { ActorSystem } from "../../actors/_runtime/system.ts";
import { platformSettings } from "../../actors/platform/lookup.ts";
import {
  type Branding,
  brandingCss,
  brandingUrl,
  DOC_DESTINATIONS,
  type DocDestination,
  LOGO_DESTINATIONS,
  type LogoDestination,
  UPLOAD_KINDS,
  type UploadKind,
} from "../../domain/branding.ts";
import { settingOn } from "../../domain/settings.ts";

const FOLDERS: Readonly<Record<UploadKind, string>> = { logo: "branding", doc: "docs", cert: "private" };

/** A stored upload: its size and when it was written (ms). */
export interface UploadInfo {
  size: number;
  updatedAt: number;
}

/** The path of `destination`'s file of `kind`; throws for a destination the kind lacks. */
export function uploadPath(dataDir: string, kind: UploadKind, destination: string): string {
  const spec = UPLOAD_KINDS[kind];
  if (!spec.destinations.includes(destination)) throw new Error(`Unknown ${kind} destination ${destination}`);
  return join(dataDir, "platform", FOLDERS[kind], `${destination}${spec.ext}`);
}

/** Stores `bytes` as `destination`'s file, replacing any older one in one rename. */
export async function saveUpload(
  dataDir: string,
  kind: UploadKind,
  destination: string,
  bytes: Uint8Array,
): Promise<UploadInfo> {
  const path = uploadPath(dataDir, kind, destination);
  await Deno.mkdir(join(path, ".."), { recursive: true, mode: kind === "cert" ? 0o700 : 0o755 });
  const aside = `${path}.${crypto.randomUUID()}.part`;
  await Deno.writeFile(aside, bytes, { mode: kind === "cert" ? 0o600 : 0o644 });
  await Deno.rename(aside, path);
  return (await uploadInfo(dataDir, kind, destination))!;
}

/** Size and time of `destination`'s file, or null when none was uploaded. */
export async function uploadInfo(dataDir: string, kind: UploadKind, destination: string): Promise<UploadInfo | null> {
  try {
    const stat = await Deno.stat(uploadPath(dataDir, kind, destination));
    return { size: stat.size, updatedAt: stat.mtime?.getTime() ?? 0 };
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
}

/** Every destination of `kind` with its file's info (null when none). */
export async function uploadsOf(dataDir: string, kind: UploadKind): Promise<Record<string, UploadInfo | null>> {
  const destinations = UPLOAD_KINDS[kind].destinations;
  const infos = await Promise.all(destinations.map((d) => uploadInfo(dataDir, kind, d)));
  return Object.fromEntries(destinations.map((d, i) => [d, infos[i]]));
}

/**
 * The Pix certificate's path when one was uploaded, else null. For the billing side (Efí's
 * API authenticates with it); it is never served over HTTP.
 */
export async function certificatePath(dataDir: string, destination = "certificadoEfi"): Promise<string | null> {
  return await uploadInfo(dataDir, "cert", destination) ? uploadPath(dataDir, "cert", destination) : null;
}

/**
 * What every page's frame shows of the branding (first paint, public pages included): the
 * platform's colour tokens, the uploaded logos and icons, and the documents the sign-up
 * page links when viewterms / viewprivacy are on.
 */
export async function pageBranding(system: ActorSystem, dataDir: string): Promise<Branding> {
  const [settings, logos, docs] = await Promise.all([
    platformSettings(system),
    uploadsOf(dataDir, "logo"),
    uploadsOf(dataDir, "doc"),
  ]);
  const branding: Branding = { css: brandingCss(settings), logos: {}, docs: {} };
  for (const destination of LOGO_DESTINATIONS) {
    const info = logos[destination];
    if (info) branding.logos[destination as LogoDestination] = brandingUrl("logo", destination, info.updatedAt);
  }
  const shown: Record<DocDestination, string> = { termos: "viewterms", privacidade: "viewprivacy" };
  for (const destination of DOC_DESTINATIONS) {
    const info = docs[destination];
    if (info && settingOn(settings[shown[destination]])) {
      branding.docs[destination] = brandingUrl("doc", destination, info.updatedAt);
    }
  }
  return branding;
}
