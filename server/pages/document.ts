/**
 * The HTML document around a rendered page: head (tokens CSS, theme and company colours
 * applied before first paint), the page markup, the islands' props, and module scripts with
 * modulepreload for every chunk the page's islands load first.
 */
import type { IslandManifest } from "../islands/build.ts";
import type { RenderContext } from "./island.tsx";

function escapeJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c").replace(/\u2028|\u2029/g, "");
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[ch]!);
}

/**
 * Runs before paint: applies company colours cached by the shell (localStorage
 * "companyColors") so a reload does not flash the default palette.
 */
const HEAD_SCRIPT = `try{var c=JSON.parse(localStorage.getItem("companyColors")||"{}"),s=document.documentElement.style;` +
  `for(var k in c)if(/^--[a-z-]+$/.test(k)&&typeof c[k]==="string")s.setProperty(k,c[k])}catch(e){}`;

/** The full HTML of a page. */
export function renderDocument(
  ctx: RenderContext,
  title: string,
  body: string,
  manifest: IslandManifest,
  pageCss?: string | string[],
): string {
  const sheets = (typeof pageCss === "string" ? [pageCss] : pageCss ?? [])
    .map((name) => `<link rel="stylesheet" href="/static/pages/${name}.css">`).join("");
  const names = [...new Set(ctx.islands.map((i) => i.name))];
  const files = [...new Set(names.flatMap((n) => manifest.islands[n]?.files ?? []))];
  const props = ctx.islands.map((i) =>
    `<script type="application/json" id="island-props-${i.id}">${escapeJson(i.props)}</script>`
  ).join("");
  const preload = files.map((f) => `<link rel="modulepreload" href="/build/${f}">`).join("");
  const scripts = names.map((n) => manifest.islands[n])
    .filter(Boolean)
    .map((a) => `<script type="module" src="/build/${a.entry}"></script>`).join("");
  return `<!doctype html><html lang="${ctx.lang}" data-theme="${ctx.theme}"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${escapeHtml(title)}</title><link rel="stylesheet" href="/static/app.css"><link rel="stylesheet" href="/static/ui.css">` +
    sheets +
    `<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">` +
    `<script>${HEAD_SCRIPT}</script>${preload}</head><body>${body}${props}${scripts}</body></html>`;
}
