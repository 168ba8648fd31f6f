/**
 * Signed, expiring media URLs: `/media/{companyId}/{file}?exp={unix s}&sig={hex}` where `sig`
 * is HMAC-SHA256 over `{companyId}/{file}:{exp}` with the app secret. Only the server can
 * make one, and it hands them only to authenticated users of the company (inside message
 * responses and events), so a URL works for those users (and whoever they share it with)
 * until it expires. Expiry is rounded up to the hour so the same file keeps the same URL
 * for an hour, which lets the browser cache it.
 */

/** How long a signed URL works at least. */
export const MEDIA_URL_TTL_S = 12 * 3600;

const encoder = new TextEncoder();

/** The HMAC key of media URLs (derived from, never equal to, the token secret's use). */
function hmacKey(secret: string): Promise<CryptoKey> {
  return crypto.subtle.importKey(
    "raw",
    encoder.encode(`media:${secret}`),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign", "verify"],
  );
}

function hex(bytes: ArrayBuffer): string {
  return Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
}

function unhex(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[0-9a-f]{64}$/.test(text)) return null;
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++) out[i] = parseInt(text.slice(i * 2, i * 2 + 2), 16);
  return out;
}

function payload(companyId: number, file: string, exp: number): Uint8Array<ArrayBuffer> {
  return encoder.encode(`${companyId}/${file}:${exp}`);
}

/** The signed URL path of a company's media file. */
export async function signMediaUrl(
  secret: string,
  companyId: number,
  file: string,
  now = Date.now(),
): Promise<string> {
  const exp = Math.ceil((now / 1000 + MEDIA_URL_TTL_S) / 3600) * 3600;
  const sig = await crypto.subtle.sign("HMAC", await hmacKey(secret), payload(companyId, file, exp));
  return `/media/${companyId}/${encodeURIComponent(file)}?exp=${exp}&sig=${hex(sig)}`;
}

/** Whether `sig` signs this file until `exp` and `exp` has not passed. */
export async function verifyMediaSignature(
  secret: string,
  companyId: number,
  file: string,
  exp: number,
  sig: string,
  now = Date.now(),
): Promise<boolean> {
  if (!Number.isSafeInteger(exp) || exp * 1000 < now) return false;
  const bytes = unhex(sig);
  if (!bytes) return false;
  return await crypto.subtle.verify("HMAC", await hmacKey(secret), bytes, payload(companyId, file, exp));
}
