/**
 * The page router: a GET that accepts HTML and whose path is a page of spec 002 §2.1 gets
 * the server-rendered page; every other request goes on to the API. This keeps paths the
 * page and the API share (`/tickets`) working for both: `Accept: text/html` decides.
 * Private pages render the shell without knowing the user (the token lives in the browser's
 * localStorage); the shell island sends a visitor with no session to /login.
 */
import type { MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import { createElement, type ComponentType } from "react";
import { renderToString } from "react-dom/server";
import { isLang, t, setDict } from "../../islands/lib/i18n.ts";
import pt from "../../islands/locales/pt.ts";
import en from "../../islands/locales/en.ts";
import es from "../../islands/locales/es.ts";
import { islandManifest } from "../islands/mod.ts";
import { renderDocument } from "./document.ts";
import type { PageProps, RenderContext } from "./island.tsx";
import { matchPage } from "./route_table.ts";
import LoginPage from "../../routes/login.tsx";
import SignupPage from "../../routes/signup.tsx";
import ForgotPasswordPage from "../../routes/forgotpassword.tsx";
import TicketsPage from "../../routes/tickets.tsx";
import ConstructionPage from "../../routes/construction.tsx";
import AnnouncementsPage from "../../routes/announcements.tsx";

const PAGES: Record<string, { component: ComponentType<PageProps>; title: () => string }> = {
  login: { component: LoginPage, title: () => t("login.title") },
  signup: { component: SignupPage, title: () => t("signup.title") },
  forgotpassword: { component: ForgotPasswordPage, title: () => t("forgot.title") },
  tickets: { component: TicketsPage, title: () => t("menu.tickets") },
  construction: { component: ConstructionPage, title: () => t("construction.title") },
  announcements: { component: AnnouncementsPage, title: () => t("announcements.title") },
};

const DICTS = { pt, en, es };

/** Whether the request is a browser navigation (a GET that accepts HTML). */
function wantsHtml(method: string, accept: string | undefined): boolean {
  return (method === "GET" || method === "HEAD") && !!accept && accept.includes("text/html");
}

/** Middleware answering page requests; mount it before the API areas. */
export function pageRouter(): MiddlewareHandler {
  return async function pageRouterMiddleware(c, next) {
    if (!wantsHtml(c.req.method, c.req.header("accept"))) return await next();
    const match = matchPage(c.req.path);
    if (!match) return await next();
    const page = PAGES[match.route.page] ?? PAGES.construction;
    const cookieLang = getCookie(c, "lang");
    const lang = isLang(cookieLang) ? cookieLang : "pt";
    const ctx: RenderContext = {
      lang,
      theme: getCookie(c, "theme") === "dark" ? "dark" : "light",
      path: c.req.path,
      islands: [],
    };
    const manifest = await islandManifest();
    // renderToString is synchronous, so the module's current dictionary is this request's.
    setDict(lang, DICTS[lang]);
    let html: string;
    try {
      const body = renderToString(createElement(page.component, { ctx, params: match.params }));
      html = renderDocument(ctx, `${page.title()} · ${t("app.name")}`, body, manifest);
    } finally {
      setDict("pt", pt);
    }
    return c.html(html, 200, { "cache-control": "no-store" });
  };
}
