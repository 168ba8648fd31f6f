/**
 * The HTML document around a rendered page: head (tokens CSS, the platform's colours and
 * icons from its branding, so the first paint already has them), the page markup, the
 * islands' props, and module scripts with modulepreload for every chunk the page's islands
 * load first.
 */
import type { Branding } from "../../domain/branding.ts";
import type { IslandManifest } from "../islands/manifest.ts";
import type { RenderContext } from "./island.tsx";

function escapeJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c").replace(/\u2028|\u2029/g, "");
}

/** Text made safe inside HTML text and double-quoted attributes (also the payment simulator's page). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[ch]!);
}

/**
 * Public pages with an uploaded logo or the sign-up documents' links (islands/branding/): logo,
 * card and links centred together, and the card's text brand hidden in favour of the image.
 */
const LOGO_CSS = ".brand-logo{display:block;max-width:min(280px,100%);max-height:96px;object-fit:contain}" +
  ".public-page:has(>.brand-logo),.public-page:has(>.signup-docs){align-content:center;gap:var(--space-4)}" +
  ".signup-docs{display:flex;flex-wrap:wrap;justify-content:center;gap:var(--space-4);font-size:var(--fs-sm)}" +
  ".public-page:has(>.brand-logo) .public-card .brand{display:none}";

/**
 * The branding's head tags: its colour tokens in `<style id="branding-tokens">` (after
 * app.css, so they win over the light theme's defaults; the Cores tab rewrites this element
 * after a change), and the uploaded icons, else the default SVG favicon. Every value was
 * validated by domain/branding.ts (colours, URLs without quotes or `<`) before it got here.
 */
function brandingHead(branding: Branding, nonce: string): string {
  const { logos } = branding;
  const icons = [
    logos["favicon-32x32"] && `<link rel="icon" type="image/png" sizes="32x32" href="${escapeHtml(logos["favicon-32x32"])}">`,
    logos["favicon-256x256"] && `<link rel="icon" type="image/png" sizes="256x256" href="${escapeHtml(logos["favicon-256x256"])}">`,
    logos["apple-touch-icon"] && `<link rel="apple-touch-icon" href="${escapeHtml(logos["apple-touch-icon"])}">`,
  ].filter(Boolean).join("");
  const svg = logos["favicon-32x32"] || logos["favicon-256x256"]
    ? ""
    : `<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">`;
  // The app's own logo (destination `interno`) in the drawer's brand strip, its text kept for
  // screen readers; TODO(#16): an <img> in islands/shell/Drawer.tsx would be the plainer way.
  const interno = logos.interno
    ? `.drawer-brand{background:url("${logos.interno}") no-repeat var(--space-5) center/auto 60%;color:transparent!important}`
    : "";
  const tokens = branding.css.replace(/</g, "");
  // The response's CSP admits these two `<style>` elements by their nonce (server/http/security_headers.ts).
  const n = nonce ? ` nonce="${escapeHtml(nonce)}"` : "";
  return `<style id="branding-tokens"${n}>${tokens}</style><style${n}>${LOGO_CSS}${interno.replace(/</g, "")}</style>${svg}${icons}`;
}

/** The full HTML of a page; `nonce` is the one its Content-Security-Policy names for styles. */
export function renderDocument(
  ctx: RenderContext,
  title: string,
  body: string,
  manifest: IslandManifest,
  pageCss: string | string[] | undefined,
  branding: Branding,
  nonce = "",
): string {
  const sheets = (typeof pageCss === "string" ? [pageCss] : pageCss ?? [])
    .map((name) => `<link rel="stylesheet" href="/static/pages/${name}.css">`).join("");
  const names = [...new Set(ctx.islands.map((i) => i.name))];
  const files = [...new Set(names.flatMap((n) => manifest.islands[n]?.files ?? []))];
  // Stylesheets an island imports from a library (FullCalendar's on /schedules), in the head.
  const islandSheets = [...new Set(names.flatMap((n) => manifest.islands[n]?.css ?? []))]
    .map((f) => `<link rel="stylesheet" href="/build/${f}">`).join("");
  const props = ctx.islands.map((i) =>
    `<script type="application/json" id="island-props-${i.id}">${escapeJson(i.props)}</script>`
  ).join("");
  const preload = files.map((f) => `<link rel="modulepreload" href="/build/${f}">`).join("");
  const scripts = names.map((n) => manifest.islands[n])
    .filter(Boolean)
    .map((a) => `<script type="module" src="/build/${a.entry}"></script>`).join("");
  return `<!doctype html><html lang="${ctx.lang}" data-theme="${ctx.theme}"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">` +
    (ctx.liveSeq === undefined ? "" : `<meta name="live-seq" content="${ctx.liveSeq}">`) +
    `<title>${escapeHtml(title)}</title><link rel="stylesheet" href="/static/app.css"><link rel="stylesheet" href="/static/ui.css">` +
    islandSheets + sheets + brandingHead(branding, nonce) + `${preload}</head><body>${body}${props}${scripts}</body></html>`;
}
