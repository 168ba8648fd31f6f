/**
 * The side menu of spec 000 §2 and 002 §2.1 with each item's gate: role (through
 * domain/permissions.ts), super flag and plan flags (domain/plan.ts). Pure; the drawer only
 * renders what `visibleMenu` returns.
 */
import type { LocaleKey } from "../lib/i18n.ts";
import { allowed, planHas, type SessionUser } from "../lib/session.ts";
import { superOnlyTab } from "../settings/tabs.ts";

/** One menu entry. */
export interface MenuItem {
  path: string;
  label: LocaleKey;
  icon: string;
  section: "main" | "admin";
  show: (user: SessionUser) => boolean;
  /** A browser-side flag the entry also needs (spec 002 §2.1: the campaign routes need `cshow`). */
  flag?: keyof BrowserFlags;
}

/**
 * Flags the browser holds in local storage that gate routes (spec 002 §2.1). The server,
 * which cannot read them, passes their source instead (islands/lib/campaign_flag.ts).
 */
export interface BrowserFlags {
  /** The campaign routes are shown (lib/campaign_flag.ts). */
  cshow: boolean;
}

/** Every flag set: what a caller that knows of none passes. */
export const ALL_FLAGS: BrowserFlags = { cshow: true };

const all = () => true;

/** Every menu entry in display order. */
export const MENU: readonly MenuItem[] = [
  // Spec 000 §2 says "/ admin only" while §6 gives supervisors "dashboard view"; the
  // stricter reading (admin only) decides the menu entry.
  { path: "/", label: "menu.dashboard", icon: "LayoutDashboard", section: "main", show: (u) => u.profile === "admin" },
  { path: "/servicePanel", label: "menu.servicePanel", icon: "Columns3", section: "main", show: (u) => allowed(u, "service-panel:view") },
  { path: "/tickets", label: "menu.tickets", icon: "MessagesSquare", section: "main", show: all },
  { path: "/relatorios", label: "menu.relatorios", icon: "FileBarChart", section: "main", show: all },
  { path: "/kanban", label: "menu.kanban", icon: "KanbanSquare", section: "main", show: (u) => planHas(u, "useKanban") },
  { path: "/quick-messages", label: "menu.quickMessages", icon: "Zap", section: "main", show: all },
  { path: "/todolist", label: "menu.todolist", icon: "ListTodo", section: "main", show: all },
  { path: "/contacts", label: "menu.contacts", icon: "Contact", section: "main", show: all },
  { path: "/wallets", label: "menu.wallets", icon: "Wallet", section: "main", show: all },
  { path: "/schedules", label: "menu.schedules", icon: "CalendarClock", section: "main", show: (u) => planHas(u, "useSchedules") },
  { path: "/tags", label: "menu.tags", icon: "Tag", section: "main", show: all },
  { path: "/chats", label: "menu.chats", icon: "MessageCircle", section: "main", show: (u) => planHas(u, "useInternalChat") },
  { path: "/oportunidades", label: "menu.oportunidades", icon: "Target", section: "main", show: all },
  { path: "/ratings", label: "menu.ratings", icon: "Star", section: "main", show: all },
  { path: "/helps", label: "menu.helps", icon: "CircleHelp", section: "main", show: all },
  { path: "/campaigns", label: "menu.campaigns", icon: "Megaphone", section: "admin", show: (u) => allowed(u, "campaigns:view") && planHas(u, "useCampaigns"), flag: "cshow" },
  { path: "/contact-lists", label: "menu.contactLists", icon: "Users", section: "admin", show: (u) => allowed(u, "campaigns:view") && planHas(u, "useCampaigns"), flag: "cshow" },
  { path: "/campaigns-config", label: "menu.campaignsConfig", icon: "SlidersHorizontal", section: "admin", show: (u) => allowed(u, "campaigns:view") && planHas(u, "useCampaigns"), flag: "cshow" },
  { path: "/announcements", label: "menu.announcements", icon: "Newspaper", section: "admin", show: (u) => allowed(u, "super:announcements") },
  { path: "/messages-api", label: "menu.messagesApi", icon: "Code", section: "admin", show: (u) => planHas(u, "useExternalApi") },
  { path: "/ai-module", label: "menu.aiModule", icon: "Bot", section: "admin", show: (u) => planHas(u, "useAI") },
  { path: "/users", label: "menu.users", icon: "UserCog", section: "admin", show: (u) => allowed(u, "drawer-admin-items:view") },
  { path: "/queues", label: "menu.queues", icon: "ListTree", section: "admin", show: (u) => allowed(u, "drawer-admin-items:view") },
  { path: "/connections", label: "menu.connections", icon: "Smartphone", section: "admin", show: (u) => allowed(u, "drawer-admin-items:view") },
  { path: "/financeiro", label: "menu.financeiro", icon: "Banknote", section: "admin", show: (u) => allowed(u, "financeiro:view") },
  // Not in the spec's menu: outbound webhooks (issue #22), for admins whose plan has the external API.
  { path: "/webhooks", label: "menu.webhooks", icon: "Webhook", section: "admin", show: (u) => allowed(u, "settings:manage") && planHas(u, "useExternalApi") },
  // Not in the spec's menu: the audit log (issue #24), for admins.
  { path: "/audit-log", label: "menu.auditLog", icon: "Newspaper", section: "admin", show: (u) => allowed(u, "settings:manage") },
  { path: "/integrations", label: "menu.integrations", icon: "Plug", section: "admin", show: (u) => allowed(u, "drawer-admin-items:view") },
  { path: "/settings", label: "menu.settings", icon: "Settings", section: "admin", show: (u) => allowed(u, "drawer-admin-items:view") },
  { path: "/companies", label: "menu.companies", icon: "Building2", section: "admin", show: (u) => allowed(u, "super:companies") },
  // Not in the spec's menu: every company's dropped WhatsApp connections (issue #40), for the platform owner.
  { path: "/connection-alerts", label: "menu.connectionAlerts", icon: "WifiOff", section: "admin", show: (u) => allowed(u, "super:companies") },
];

/** The entries `user` sees with the browser's `flags`. */
export function visibleMenu(user: SessionUser, flags: BrowserFlags = ALL_FLAGS): MenuItem[] {
  return MENU.filter((item) => item.show(user) && (!item.flag || flags[item.flag]));
}

/** Connection statuses that raise the /connections warning badge (spec 000 §2). */
export const WARNING_STATUSES: ReadonlySet<string> = new Set(["qrcode", "PAIRING", "DISCONNECTED", "TIMEOUT", "OPENING"]);

/** Whether `path` (the current page) belongs to the menu entry `item`. */
export function isCurrent(item: MenuItem, path: string): boolean {
  return item.path === "/" ? path === "/" : path === item.path || path.startsWith(item.path + "/");
}

/** Admin pages and the permission that opens each (the same as their menu entries'). */
const ADMIN_PAGES: readonly { path: string; permission: Parameters<typeof allowed>[1] }[] = [
  { path: "/users", permission: "drawer-admin-items:view" },
  { path: "/queues", permission: "drawer-admin-items:view" },
  { path: "/connections", permission: "drawer-admin-items:view" },
  { path: "/simulator", permission: "drawer-admin-items:view" },
  { path: "/settings", permission: "drawer-admin-items:view" },
  { path: "/integrations", permission: "drawer-admin-items:view" },
  { path: "/webhooks", permission: "settings:manage" },
  { path: "/audit-log", permission: "settings:manage" },
  { path: "/companies", permission: "super:companies" },
  { path: "/connection-alerts", permission: "super:companies" },
  { path: "/subscription", permission: "company:viewOwn" },
  { path: "/servicePanel", permission: "service-panel:view" },
];

/** A route the user may not open: the text to show and when to go to / (spec 002 §2.1). */
export interface RouteGate {
  text: LocaleKey;
  delayMs: number;
  /** Where to go instead of / (the dashboard itself sends a user without it to the inbox). */
  to?: string;
}

/**
 * Spec 002 §2.1 gates: campaign pages need useCampaigns, kanban needs useKanban (upgrade
 * message, then / after 1 s; 0.5 s on the campaign report); announcements are for super users
 * ('Sem permissão para acessar!', then / after 0.5 s). `search` is the URL's query (`?tab=`
 * names a settings tab, some of them super-only); `flags` the browser's (the campaign pages
 * also need `cshow`: without it, the upgrade message as for the plan flag, since both say the
 * company has no campaigns and to ask support).
 */
export function routeGate(user: SessionUser, path: string, search = "", flags: BrowserFlags = ALL_FLAGS): RouteGate | null {
  // 000 §6: the dashboard is for admins and supervisors; others land in the inbox, not in a loop.
  if (path === "/" && !allowed(user, "dashboard:view")) return { text: "gate.noPermission", delayMs: 500, to: "/tickets" };
  const campaign = /^\/(campaigns|contact-lists|campaigns-config|campaign\/)/.test(path);
  if (campaign && !planHas(user, "useCampaigns")) {
    return { text: "gate.upgrade", delayMs: path.startsWith("/campaign/") ? 500 : 1000 };
  }
  // 000 §2: the campaign pages are for admin and supervisor (as their menu entries).
  if (campaign && !allowed(user, "campaigns:view")) return { text: "gate.noPermission", delayMs: 500 };
  if (campaign && !flags.cshow) return { text: "gate.upgrade", delayMs: path.startsWith("/campaign/") ? 500 : 1000 };
  if (/^\/kanban/.test(path) && !planHas(user, "useKanban")) return { text: "gate.upgrade", delayMs: 1000 };
  // 000 §2: /ai-module only if the plan has useAI (as its menu entry).
  if (/^\/ai-module/.test(path) && !planHas(user, "useAI")) return { text: "gate.upgrade", delayMs: 1000 };
  // Spec 000 §2 route table: /schedules only if the plan has useSchedules.
  if (/^\/schedules/.test(path) && !planHas(user, "useSchedules")) return { text: "gate.upgrade", delayMs: 1000 };
  // /chats only if the plan has useInternalChat (as its menu entry; the API answers 403 too).
  if (/^\/chats/.test(path) && !planHas(user, "useInternalChat")) return { text: "gate.upgrade", delayMs: 1000 };
  if (/^\/announcements/.test(path) && !allowed(user, "super:announcements")) return { text: "gate.noPermission", delayMs: 500 };
  // Spec 001 §2.17: the external API page needs useExternalApi (upgrade message, / after 1 s).
  if (/^\/messages-api/.test(path) && !planHas(user, "useExternalApi")) return { text: "gate.upgrade", delayMs: 1000 };
  // Outbound webhooks (issue #22) are the external API's other half: the same plan flag.
  if (/^\/webhooks/.test(path) && !planHas(user, "useExternalApi")) return { text: "gate.upgrade", delayMs: 1000 };
  // The admin area's pages (000 §2: their menu entries are admin-only; 001 §6) answer a user
  // who may not open them as the super-only screens do: 'Sem permissão para acessar!', / after 0.5 s.
  const admin = ADMIN_PAGES.find((p) => path === p.path || path.startsWith(p.path + "/"));
  if (admin && !allowed(user, admin.permission)) return { text: "gate.noPermission", delayMs: 500 };
  // 001 §2.7, §6: a super-only settings tab (companies, plans, helps, branding…) opened by link.
  if (path === "/settings" && !user.super && superOnlyTab(new URLSearchParams(search).get("tab"))) {
    return { text: "gate.noPermission", delayMs: 500 };
  }
  return null;
}
