/**
 * Every page component by its key in the route table (route_table.ts `page`). A route module
 * exports its component as default and may export `load` (its first data, read on the
 * server) and `css` (a stylesheet of its own under static/pages/).
 *
 * Route modules are imported when their page is first asked for, not at start: the pages and
 * the islands and libraries they render (icons, charts, the calendar) were ~450 ms of every
 * start's module loading before the server could listen (issue #23 §3's cold start). The
 * first render of each page after a start pays its import once.
 */
import type { ComponentType } from "react";
import { t } from "../../islands/lib/i18n.ts";
import type { PageProps } from "./island.tsx";
import type { Loader, PublicLoader } from "./loader.ts";
import { AdminRoute } from "./admin_route.tsx";

/** What a route module exports. */
interface RouteModule {
  default: ComponentType<PageProps>;
  load?: Loader;
  loadPublic?: PublicLoader;
  css?: string | string[];
}

/** One page: its component, its title, and optionally its loader and its own stylesheet. */
export interface PageDef {
  component: ComponentType<PageProps>;
  title: () => string;
  load?: Loader;
  /** A public page's loader (no viewer). */
  loadPublic?: PublicLoader;
  /** Stylesheets under /static/pages/ loaded by this page only. */
  css?: string | string[];
}

/** A page whose module is imported on its first use (the same promise every use after). */
function lazy(importer: () => Promise<RouteModule>, title: () => string): () => Promise<PageDef> {
  let loaded: Promise<PageDef> | undefined;
  return () =>
    loaded ??= importer().then((mod) => ({
      component: mod.default,
      title,
      load: mod.load,
      loadPublic: mod.loadPublic,
      css: mod.css,
    }));
}

/** What a viewer gets on a page they may not open (server/pages/mod.ts). */
export const GATE_PAGE: PageDef = {
  component: ({ ctx }) => AdminRoute({ ctx, children: null }),
  title: () => t("gate.noPermission"),
};

/** The pages by key. */
export const PAGE_MODULES: Record<string, () => Promise<PageDef>> = {
  login: lazy(() => import("../../routes/login.tsx"), () => t("login.title")),
  signup: lazy(() => import("../../routes/signup.tsx"), () => t("signup.title")),
  forgotpassword: lazy(() => import("../../routes/forgotpassword.tsx"), () => t("forgot.title")),
  tickets: lazy(() => import("../../routes/tickets.tsx"), () => t("menu.tickets")),
  construction: lazy(() => import("../../routes/construction.tsx"), () => t("construction.title")),
  announcements: lazy(() => import("../../routes/announcements.tsx"), () => t("announcements.title")),
  connections: lazy(() => import("../../routes/connections.tsx"), () => t("menu.connections")),
  users: lazy(() => import("../../routes/users.tsx"), () => t("menu.users")),
  contacts: lazy(() => import("../../routes/contacts.tsx"), () => t("menu.contacts")),
  queues: lazy(() => import("../../routes/queues.tsx"), () => t("menu.queues")),
  tags: lazy(() => import("../../routes/tags.tsx"), () => t("menu.tags")),
  dashboard: lazy(() => import("../../routes/dashboard.tsx"), () => t("menu.dashboard")),
  "quick-messages": lazy(() => import("../../routes/quick_messages.tsx"), () => t("menu.quickMessages")),
  helps: lazy(() => import("../../routes/helps.tsx"), () => t("menu.helps")),
  survey: lazy(() => import("../../routes/survey.tsx"), () => t("survey.title")),
  settings: lazy(() => import("../../routes/settings.tsx"), () => t("settings.title")),
  companies: lazy(() => import("../../routes/companies.tsx"), () => t("settings.tab.companies")),
  "messages-api": lazy(() => import("../../routes/messages_api.tsx"), () => t("messagesApi.title")),
  subscription: lazy(() => import("../../routes/subscription.tsx"), () => t("subscriptionPage.title")),
  schedules: lazy(() => import("../../routes/schedules.tsx"), () => t("menu.schedules")),
  "api-docs": lazy(() => import("../../routes/api_docs.tsx"), () => t("apiDocs.title")),
  relatorios: lazy(() => import("../../routes/relatorios.tsx"), () => t("menu.relatorios")),
  "service-panel": lazy(() => import("../../routes/service_panel.tsx"), () => t("menu.servicePanel")),
  webhooks: lazy(() => import("../../routes/webhooks.tsx"), () => t("webhooks.title")),
  "audit-log": lazy(() => import("../../routes/audit_log.tsx"), () => t("audit.title")),
  "connection-alerts": lazy(() => import("../../routes/connection_alerts.tsx"), () => t("connectionAlerts.title")),
  chats: lazy(() => import("../../routes/chats.tsx"), () => t("menu.chats")),
  kanban: lazy(() => import("../../routes/kanban.tsx"), () => t("menu.kanban")),
  ratings: lazy(() => import("../../routes/ratings.tsx"), () => t("menu.ratings")),
  oportunidades: lazy(() => import("../../routes/oportunidades.tsx"), () => t("menu.oportunidades")),
  wallets: lazy(() => import("../../routes/wallets.tsx"), () => t("menu.wallets")),
  integrations: lazy(() => import("../../routes/integrations.tsx"), () => t("menu.integrations")),
  todolist: lazy(() => import("../../routes/todolist.tsx"), () => t("menu.todolist")),
  "ai-module": lazy(() => import("../../routes/ai_module.tsx"), () => t("menu.aiModule")),
  campaigns: lazy(() => import("../../routes/campaigns.tsx"), () => t("menu.campaigns")),
  "contact-lists": lazy(() => import("../../routes/contact_lists.tsx"), () => t("menu.contactLists")),
  "contact-list-items": lazy(() => import("../../routes/contact_list_items.tsx"), () => t("menu.contactLists")),
  "campaign-report": lazy(() => import("../../routes/campaign_report.tsx"), () => t("campaignReport.title")),
  "campaigns-config": lazy(() => import("../../routes/campaigns_config.tsx"), () => t("menu.campaignsConfig")),
  financeiro: lazy(() => import("../../routes/financeiro.tsx"), () => t("menu.financeiro")),
  simulator: lazy(() => import("../../routes/simulator.tsx"), () => t("simulator.title")),
};
