/**
 * The platform's branding (spec 001 §2.10, §2.11, §9; 002 "Theme handling"): the colour
 * palette of the Cores tab, the colour and background settings and the theme tokens they
 * become, and the upload destinations with the file types each accepts.
 *
 * Whose colours: the Cores tab is a super screen (001 §2.4, §6), so the colour keys are
 * global settings — the platform's palette, written by super and applied to every page,
 * public pages and every company alike. A company has no colours of its own: no screen of
 * the spec lets a company admin set them, and one palette keeps the public pages (which know
 * no company) and the app the same product.
 *
 * Values reach the page's CSS, so they are accepted strictly (here, on every PUT, and again
 * when the tokens are built): colours only as `#rgb`/`#rrggbb`, the background only as an
 * http(s) or site-relative URL without quotes, parentheses, backslashes, spaces or `<`.
 * Pure: shared by the server and the islands.
 */

/** The colour settings of the Cores tab, in display order. */
export const BRANDING_COLOR_KEYS = ["mainColor", "scrollbarColor", "toolbarBackground"] as const;
export type BrandingColorKey = typeof BRANDING_COLOR_KEYS[number];

/** Every branding setting (global keys, see the module comment). */
export const BRANDING_KEYS = [...BRANDING_COLOR_KEYS, "backgroundPages"] as const;
export type BrandingKey = typeof BRANDING_KEYS[number];

/**
 * The 49 preset colours offered for each colour setting (spec 001 §2.10), seven to a row:
 * blues, teals and greens, olives and ambers, oranges and reds, pinks and purples, violets
 * and indigos, then slate greys. Most are dark enough to carry white text (the top bar's).
 */
export const COLOR_PALETTE: readonly string[] = [
  "#1e3a8a", "#1d4ed8", "#2563eb", "#3b82f6", "#0369a1", "#0284c7", "#0ea5e9",
  "#134e4a", "#0f766e", "#0d9488", "#047857", "#059669", "#15803d", "#16a34a",
  "#3f6212", "#4d7c0f", "#65a30d", "#a16207", "#ca8a04", "#b45309", "#d97706",
  "#9a3412", "#c2410c", "#ea580c", "#991b1b", "#b91c1c", "#dc2626", "#e11d48",
  "#9d174d", "#be185d", "#db2777", "#86198f", "#a21caf", "#c026d3", "#6b21a8",
  "#7e22ce", "#9333ea", "#4c1d95", "#6d28d9", "#7c3aed", "#3730a3", "#4f46e5",
  "#0f172a", "#1e293b", "#334155", "#475569", "#64748b", "#94a3b8", "#cbd5e1",
];

const COLOR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;
const BACKGROUND = /^(?:https?:\/\/|\/)[A-Za-z0-9._~:/?#@!$&*+,;=%[\]-]{0,500}$/;

/** Whether `value` is a colour a branding setting accepts (`#rgb` or `#rrggbb`). */
export function isBrandColor(value: string): boolean {
  return COLOR.test(value);
}

/** Whether `value` is a background-image URL the page may carry ("" means none). */
export function isBackgroundUrl(value: string): boolean {
  return value === "" || (BACKGROUND.test(value) && !value.startsWith("//"));
}

/** Whether `key` is a branding setting. */
export function isBrandingKey(key: string): key is BrandingKey {
  return (BRANDING_KEYS as readonly string[]).includes(key);
}

/**
 * Why `value` is not acceptable for the branding setting `key`, or null (also for keys that
 * are not branding keys). toolbarBackground may be "" (the toolbar follows the main colour).
 */
export function brandingValueError(key: string, value: string): string | null {
  if (key === "backgroundPages") {
    return isBackgroundUrl(value) ? null : `backgroundPages must be an http(s) or /path image URL, got ${value}`;
  }
  if (!(BRANDING_COLOR_KEYS as readonly string[]).includes(key)) return null;
  if (key === "toolbarBackground" && value === "") return null;
  return isBrandColor(value) ? null : `${key} must be a colour like #1d4ed8, got ${value}`;
}

/** The CSS custom properties each branding setting sets. */
const TOKENS: Readonly<Record<BrandingKey, string>> = {
  mainColor: "--primary",
  scrollbarColor: "--scrollbar",
  toolbarBackground: "--toolbar-bg",
  backgroundPages: "--page-bg-image",
};

/**
 * The theme tokens of the branding settings in `settings` (a key → value map); values that
 * fail the checks above are left out, so the stylesheet's defaults stay.
 */
export function brandingTokens(settings: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const tokens: Record<string, string> = {};
  for (const key of BRANDING_KEYS) {
    const value = settings[key] ?? "";
    if (!value || brandingValueError(key, value)) continue;
    tokens[TOKENS[key]] = key === "backgroundPages" ? `url("${value}")` : value;
  }
  return tokens;
}

/**
 * The stylesheet text setting the tokens on `:root`. It follows app.css, so it overrides the
 * light theme's values; the dark theme's own rule (`:root[data-theme="dark"]`) is more
 * specific and keeps its fixed toolbar colour (002: "a dark theme uses a fixed palette"),
 * while the main colour, scrollbar and background apply in both themes.
 */
export function brandingCss(settings: Readonly<Record<string, string | undefined>>): string {
  const tokens = brandingTokens(settings);
  const body = Object.entries(tokens).map(([name, value]) => `${name}:${value}`).join(";");
  return body ? `:root{${body}}` : "";
}

/** Where a PNG logo or icon goes (spec 001 §7, §9). */
export const LOGO_DESTINATIONS = [
  "signup",
  "login",
  "interno",
  "favicon-32x32",
  "favicon-256x256",
  "apple-touch-icon",
] as const;
export type LogoDestination = typeof LOGO_DESTINATIONS[number];

/** The PDF documents (spec 001 §9): terms of use and privacy policy. */
export const DOC_DESTINATIONS = ["termos", "privacidade"] as const;
export type DocDestination = typeof DOC_DESTINATIONS[number];

/** The payment provider's certificate (Efí's Pix .p12; spec 001 §2.4, §7). */
export const CERT_DESTINATIONS = ["certificadoEfi"] as const;
export type CertDestination = typeof CERT_DESTINATIONS[number];

/** The three upload kinds of the settings tabs. */
export type UploadKind = "logo" | "doc" | "cert";

/** Each kind's destinations, file extension, stored MIME type and size cap. */
export const UPLOAD_KINDS: Readonly<
  Record<UploadKind, { destinations: readonly string[]; ext: string; mime: string; maxBytes: number }>
> = {
  logo: { destinations: LOGO_DESTINATIONS, ext: ".png", mime: "image/png", maxBytes: 2 * 1024 * 1024 },
  doc: { destinations: DOC_DESTINATIONS, ext: ".pdf", mime: "application/pdf", maxBytes: 10 * 1024 * 1024 },
  cert: { destinations: CERT_DESTINATIONS, ext: ".p12", mime: "application/x-pkcs12", maxBytes: 64 * 1024 },
};

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/**
 * Whether `bytes` really are a file of `kind`, by content rather than by name: PNG's 8-byte
 * signature, PDF's `%PDF-` header, and for PKCS#12 an ASN.1 SEQUENCE (0x30) with a long-form
 * or indefinite length, which is how every real .p12 (always over 127 bytes) starts.
 */
export function hasFileSignature(kind: UploadKind, bytes: Uint8Array): boolean {
  if (kind === "logo") return PNG_SIGNATURE.every((b, i) => bytes[i] === b);
  if (kind === "doc") return [0x25, 0x50, 0x44, 0x46, 0x2d].every((b, i) => bytes[i] === b);
  return bytes.length > 4 && bytes[0] === 0x30 && bytes[1] >= 0x80 && bytes[1] <= 0x84;
}

/** What the page frame knows of the branding: its stylesheet text and the uploaded files' URLs. */
export interface Branding {
  /** `:root{…}` with the platform's colour tokens ("" for none). */
  css: string;
  /** URL of each uploaded logo or icon (versioned so a new upload is fetched again). */
  logos: Partial<Record<LogoDestination, string>>;
  /** URL of each uploaded document that the sign-up page shows (viewterms / viewprivacy on). */
  docs: Partial<Record<DocDestination, string>>;
}

/** The public URL of an uploaded logo or document, versioned by its upload time. */
export function brandingUrl(kind: "logo" | "doc", destination: string, version: number): string {
  return `/branding/${kind === "doc" ? "docs/" : ""}${destination}?v=${Math.floor(version)}`;
}
