/**
 * The page routes of spec 002 §2.1: public pages, private pages (the app shell), and which
 * private pages are built. A path matches a page only for a GET that accepts HTML, so the API
 * keeps paths it shares with pages (`GET /tickets` as JSON).
 */

/** One page route: its pattern (`:name` and optional `:name?` segments) and kind. */
export interface PageRoute {
  pattern: string;
  kind: "public" | "private";
  /** The page component key (routes/<page>.tsx); unbuilt private pages use "construction". */
  page: string;
}

// /api-docs is not in the spec's table: the OpenAPI document's page (issue #22), public like
// GET /openapi.json because it shows shapes, never data, to integrators who have no login.
const PUBLIC = ["/login", "/signup", "/forgotpassword", "/api-docs", "/survey"];
const BUILT: Record<string, string> = {
  "/tickets/:ticketId?": "tickets",
  "/announcements": "announcements",
  "/connections": "connections",
  "/users": "users",
  "/contacts": "contacts",
  "/queues": "queues",
  "/tags": "tags",
  "/": "dashboard",
  "/quick-messages": "quick-messages",
  "/helps": "helps",
  "/settings": "settings",
  "/subscription": "subscription",
  "/companies": "companies",
  "/messages-api": "messages-api",
  "/schedules": "schedules",
  "/relatorios": "relatorios",
  "/servicePanel": "service-panel",
  "/webhooks": "webhooks",
  "/ratings": "ratings",
  "/oportunidades": "oportunidades",
  "/wallets": "wallets",
  "/integrations": "integrations",
  "/todolist": "todolist",
  "/ai-module": "ai-module",
  "/audit-log": "audit-log",
  "/connection-alerts": "connection-alerts",
  "/chats/:id?": "chats",
  "/kanban": "kanban",
  "/campaigns": "campaigns",
  "/campaign/:campaignId/report": "campaign-report",
  "/campaigns-config": "campaigns-config",
  "/contact-lists": "contact-lists",
  "/contact-lists/:contactListId/contacts": "contact-list-items",
  "/financeiro": "financeiro",
  "/simulator": "simulator",
};
const PRIVATE = [
  "/",
  "/servicePanel",
  "/tickets/:ticketId?",
  "/connections",
  "/relatorios",
  "/quick-messages",
  "/schedules",
  "/wallets",
  "/todolist",
  "/tags",
  "/contacts",
  "/helps",
  "/users",
  "/messages-api",
  "/ai-module",
  "/settings",
  "/financeiro",
  "/queues",
  "/announcements",
  "/subscription",
  "/kanban",
  "/oportunidades",
  "/companies",
  "/ratings",
  "/integrations",
  "/chats/:id?",
  "/contact-lists",
  "/contact-lists/:contactListId/contacts",
  "/campaigns",
  "/campaign/:campaignId/report",
  "/campaigns-config",
  // Not in spec 002's route table: the outbound webhook subscriptions (issue #22), a settings
  // screen the spec's product lacks (its connections only have one webhook URL each).
  "/webhooks",
  // Not in spec 002's route table either: the audit log (issue #24), read by the company's
  // admin; the spec's product records no audit trail.
  "/audit-log",
  // Nor the platform owner's dropped connections (issue #40): the spec's product never told.
  "/connection-alerts",
  // Not in the spec's table: the simulated customer's phone (DESIGN §6, issue #37), an
  // admin's page in the app like the connections it belongs to.
  "/simulator",
];

/** Every page route. */
export const PAGE_ROUTES: readonly PageRoute[] = [
  ...PUBLIC.map((pattern) => ({ pattern, kind: "public" as const, page: pattern.slice(1) })),
  ...PRIVATE.map((pattern) => ({ pattern, kind: "private" as const, page: BUILT[pattern] ?? "construction" })),
];

/** A matched page: the route and its path parameters. */
export interface PageMatch {
  route: PageRoute;
  params: Record<string, string>;
}

/** The page for `path`, or null when the path is not a page. */
export function matchPage(path: string): PageMatch | null {
  const parts = path.split("/").filter(Boolean);
  for (const route of PAGE_ROUTES) {
    const segs = route.pattern.split("/").filter(Boolean);
    const params: Record<string, string> = {};
    let ok = parts.length <= segs.length;
    for (let i = 0; ok && i < segs.length; i++) {
      const seg = segs[i];
      const part = parts[i];
      if (seg.startsWith(":")) {
        const optional = seg.endsWith("?");
        if (part === undefined) ok = optional;
        else params[seg.slice(1, optional ? -1 : undefined)] = decodeURIComponent(part);
      } else ok = part === seg;
    }
    if (ok) return { route, params };
  }
  return null;
}
