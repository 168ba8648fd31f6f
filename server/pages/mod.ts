/**
 * The page router: a GET that accepts HTML and whose path is a page of spec 002 §2.1 gets
 * the server-rendered page; every other request goes on to the API. This keeps paths the
 * page and the API share (`/tickets`) working for both: `Accept: text/html` decides.
 * Private pages know their viewer from the refresh cookie (server/pages/viewer.ts): a page
 * whose route exports `load` renders its first data on the server, and a page the viewer may
 * not open renders the gate's message instead (the shell island then toasts and redirects).
 * Without the cookie the shell renders as before and its island sends the visitor to /login.
 */
import type { Context, MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { isLang, t, setDict } from "../../islands/lib/i18n.ts";
import pt from "../../islands/locales/pt.ts";
import en from "../../islands/locales/en.ts";
import es from "../../islands/locales/es.ts";
import { islandManifest } from "../islands/mod.ts";
import { renderDocument } from "./document.ts";
import type { RenderContext } from "./island.tsx";
import { matchPage } from "./route_table.ts";
import { apiReader, type Loader, type PublicLoader } from "./loader.ts";
import { pageViewer, type Viewer } from "./viewer.ts";
import { routeGate } from "../../islands/shell/menu.ts";
import { campaignsEnabledFor } from "../../islands/lib/campaign_flag.ts";
import type { AppEnv } from "../deps.ts";
import { GATE_PAGE, PAGE_MODULES } from "./pages.ts";
import { pageBranding } from "../media/branding_files.ts";
import { BrandingContext } from "../../islands/branding/context.ts";
import { newNonce, pageCsp } from "../http/security_headers.ts";

const DICTS = { pt, en, es };

/** Whether the request is a browser navigation (a GET that accepts HTML). */
function wantsHtml(method: string, accept: string | undefined): boolean {
  return (method === "GET" || method === "HEAD") && !!accept && accept.includes("text/html");
}

/**
 * Middleware answering page requests; mount it before the API areas. `fetchApp` is the app's
 * own fetch, which loaders read the API through.
 */
export function pageRouter(fetchApp: (request: Request) => Response | Promise<Response>): MiddlewareHandler<AppEnv> {
  return async function pageRouterMiddleware(c, next) {
    if (!wantsHtml(c.req.method, c.req.header("accept"))) return await next();
    const match = matchPage(c.req.path);
    if (!match) return await next();
    // Its metrics and logs name the page's pattern, apart from the API route of the same path.
    c.set("route", `page:${match.route.pattern}`);
    const routed = await (PAGE_MODULES[match.route.page] ?? PAGE_MODULES.construction)();
    const cookieLang = getCookie(c, "lang");
    const lang = isLang(cookieLang) ? cookieLang : "pt";
    const viewer = match.route.kind === "private" ? await pageViewer(c) : null;
    // The browser's cshow flag is not sent to the server: its source decides here (lib/campaign_flag.ts).
    const flags = viewer ? { cshow: campaignsEnabledFor(viewer.user) } : undefined;
    const gate = viewer ? routeGate(viewer.user, c.req.path, new URL(c.req.url).search, flags) : null;
    // A gated page renders the gate's notice in the shell, never the page or its data.
    const page = gate ? { ...GATE_PAGE, title: routed.title } : routed;
    const ctx: RenderContext = {
      lang,
      theme: getCookie(c, "theme") === "dark" ? "dark" : "light",
      path: c.req.path,
      islands: [],
      viewer: viewer?.user ?? null,
      gate,
      // Taken before the data is read, so an event after that read is replayed to the page.
      liveSeq: viewer ? c.get("deps").hub.resumePoint(viewer.user.companyId) : undefined,
    };
    const data = viewer && !gate && page.load
      ? await loadData(c, fetchApp, page.load, viewer, match.params)
      : match.route.kind === "public" && page.loadPublic
      ? await loadPublicData(c, fetchApp, page.loadPublic, match.params)
      : null;
    const manifest = await islandManifest();
    // The platform's colours and uploads, on every page (public ones too) from the first paint.
    const branding = await pageBranding(c.get("deps").system, c.get("deps").config.dataDir);
    // renderToString is synchronous, so the module's current dictionary is this request's.
    setDict(lang, DICTS[lang]);
    let html: string;
    const nonce = newNonce();
    try {
      const tree = createElement(page.component, { ctx, params: match.params, data });
      const body = renderToString(createElement(BrandingContext.Provider, { value: branding }, tree));
      html = renderDocument(ctx, `${page.title()} · ${t("app.name")}`, body, manifest, page.css, branding, nonce);
    } finally {
      setDict("pt", pt);
    }
    return c.html(html, 200, { "cache-control": "no-store", "content-security-policy": pageCsp(nonce) });
  };
}

function loadData(
  c: Context<AppEnv>,
  fetchApp: (request: Request) => Response | Promise<Response>,
  load: Loader,
  viewer: Viewer,
  params: Record<string, string>,
): Promise<unknown> {
  const url = new URL(c.req.url);
  return load({ viewer: viewer.user, params, query: url.searchParams, api: apiReader(fetchApp, url.origin, viewer.token, c.get("requestId")) });
}

function loadPublicData(
  c: Context<AppEnv>,
  fetchApp: (request: Request) => Response | Promise<Response>,
  load: PublicLoader,
  params: Record<string, string>,
): Promise<unknown> {
  const url = new URL(c.req.url);
  return load({ params, query: url.searchParams, api: apiReader(fetchApp, url.origin, null, c.get("requestId")) });
}
