/**
 * The tabs of /settings (spec 001 §2.4): who sees each and which API reads give its first
 * data. The route reads the active tab's `paths` on the server (first paint carries them);
 * a tab opened later fetches the same paths in the browser. Pure: shared by the route and
 * the island.
 */
import type { LocaleKey } from "../lib/i18n.ts";
import { allowed, setting, type SessionUser } from "../lib/session.ts";

/** A tab's id (the `?tab=` value). */
export type SettingsTabId =
  | "options"
  | "hours"
  | "keywords"
  | "companies"
  | "newCompany"
  | "plans"
  | "helps"
  | "colors"
  | "logos"
  | "documents"
  | "certificate";

/** One tab. */
export interface SettingsTab {
  id: SettingsTabId;
  label: LocaleKey;
  /** Whether `user` sees the tab (the server enforces the same on every call). */
  visible: (user: SessionUser, context: TabContext) => boolean;
  /** API GETs whose answers are the tab's first data, keyed by path. */
  paths: string[];
}

/** What visibility rules may need beyond the user. */
export interface TabContext {
  /** Whether a connection's webhook points at a CRM API (the keywords tab of §2.4). */
  crmWebhook: boolean;
}

const superOnly = (user: SessionUser) => user.super;

/** Every tab in display order. */
export const SETTINGS_TABS: readonly SettingsTab[] = [
  { id: "options", label: "settings.tab.options", visible: () => true, paths: ["/settings/"] },
  { id: "hours", label: "settings.tab.hours", visible: (u) => setting(u, "scheduleType") === "company" && allowed(u, "settings:manage"), paths: [] },
  { id: "keywords", label: "settings.tab.keywords", visible: (u, c) => c.crmWebhook && allowed(u, "settings:manage"), paths: ["/whatsapp?session=0"] },
  { id: "companies", label: "settings.tab.companies", visible: superOnly, paths: ["/companies/?pageNumber=1", "/plans/all"] },
  { id: "newCompany", label: "settings.tab.newCompany", visible: superOnly, paths: ["/plans/all", "/settings/trial"] },
  { id: "plans", label: "settings.tab.plans", visible: superOnly, paths: ["/plans/all"] },
  { id: "helps", label: "settings.tab.helps", visible: superOnly, paths: ["/helps/list"] },
  { id: "colors", label: "settings.tab.colors", visible: superOnly, paths: ["/settings/"] },
  { id: "logos", label: "settings.tab.logos", visible: superOnly, paths: ["/branding/files"] },
  { id: "documents", label: "settings.tab.documents", visible: superOnly, paths: ["/branding/files"] },
  { id: "certificate", label: "settings.tab.certificate", visible: superOnly, paths: ["/branding/files"] },
];

/**
 * Whether `id` names a tab only super users see (spec 001 §2.4, §2.7, §6). A link to one opened
 * by anyone else is refused as the super-only screens are ('Sem permissão para acessar!', then
 * / after 0.5 s: islands/shell/menu.ts routeGate), not silently turned into the first tab.
 */
export function superOnlyTab(id: string | null): boolean {
  return SETTINGS_TABS.some((t) => t.id === id && t.visible === superOnly);
}

/** The tab for `id`, falling back to the first one `user` sees. */
export function activeTab(user: SessionUser, id: string | null, context: TabContext): SettingsTab {
  const visible = SETTINGS_TABS.filter((t) => t.visible(user, context));
  return visible.find((t) => t.id === id) ?? visible[0];
}
