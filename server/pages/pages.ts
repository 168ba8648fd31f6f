/**
 * Every page component by its key in the route table (route_table.ts `page`). A route module
 * exports its component as default and may export `load` (its first data, read on the
 * server) and `css` (a stylesheet of its own under static/pages/).
 */
import type { ComponentType } from "react";
import { t } from "../../islands/lib/i18n.ts";
import type { PageProps } from "./island.tsx";
import type { Loader, PublicLoader } from "./loader.ts";
import * as login from "../../routes/login.tsx";
import * as signup from "../../routes/signup.tsx";
import * as forgotpassword from "../../routes/forgotpassword.tsx";
import * as tickets from "../../routes/tickets.tsx";
import * as construction from "../../routes/construction.tsx";
import * as announcements from "../../routes/announcements.tsx";
import * as connections from "../../routes/connections.tsx";
import * as users from "../../routes/users.tsx";
import * as contacts from "../../routes/contacts.tsx";
import * as queues from "../../routes/queues.tsx";
import * as tags from "../../routes/tags.tsx";
import * as dashboard from "../../routes/dashboard.tsx";
import * as quickMessages from "../../routes/quick_messages.tsx";
import * as helps from "../../routes/helps.tsx";
import * as survey from "../../routes/survey.tsx";
import * as settings from "../../routes/settings.tsx";
import * as companies from "../../routes/companies.tsx";
import * as messagesApi from "../../routes/messages_api.tsx";
import * as subscription from "../../routes/subscription.tsx";
import * as schedules from "../../routes/schedules.tsx";
import * as apiDocs from "../../routes/api_docs.tsx";
import * as relatorios from "../../routes/relatorios.tsx";
import * as servicePanel from "../../routes/service_panel.tsx";
import * as webhooks from "../../routes/webhooks.tsx";
import * as auditLog from "../../routes/audit_log.tsx";
import * as chats from "../../routes/chats.tsx";
import * as kanban from "../../routes/kanban.tsx";
import * as ratings from "../../routes/ratings.tsx";
import * as oportunidades from "../../routes/oportunidades.tsx";
import * as wallets from "../../routes/wallets.tsx";
import * as integrations from "../../routes/integrations.tsx";
import * as todolist from "../../routes/todolist.tsx";
import * as aiModule from "../../routes/ai_module.tsx";
import * as campaigns from "../../routes/campaigns.tsx";
import * as campaignReport from "../../routes/campaign_report.tsx";
import * as campaignsConfig from "../../routes/campaigns_config.tsx";
import * as contactLists from "../../routes/contact_lists.tsx";
import * as contactListItems from "../../routes/contact_list_items.tsx";
import * as financeiro from "../../routes/financeiro.tsx";
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

function page(mod: RouteModule, title: () => string): PageDef {
  return { component: mod.default, title, load: mod.load, loadPublic: mod.loadPublic, css: mod.css };
}

/** The pages by key. */
export const PAGE_MODULES: Record<string, PageDef> = {
  login: page(login, () => t("login.title")),
  signup: page(signup, () => t("signup.title")),
  forgotpassword: page(forgotpassword, () => t("forgot.title")),
  tickets: page(tickets, () => t("menu.tickets")),
  construction: page(construction, () => t("construction.title")),
  announcements: page(announcements, () => t("announcements.title")),
  connections: page(connections, () => t("menu.connections")),
  users: page(users, () => t("menu.users")),
  contacts: page(contacts, () => t("menu.contacts")),
  queues: page(queues, () => t("menu.queues")),
  tags: page(tags, () => t("menu.tags")),
  dashboard: page(dashboard, () => t("menu.dashboard")),
  "quick-messages": page(quickMessages, () => t("menu.quickMessages")),
  helps: page(helps, () => t("menu.helps")),
  survey: page(survey, () => t("survey.title")),
  settings: page(settings, () => t("settings.title")),
  companies: page(companies, () => t("settings.tab.companies")),
  "messages-api": page(messagesApi, () => t("messagesApi.title")),
  subscription: page(subscription, () => t("subscriptionPage.title")),
  schedules: page(schedules, () => t("menu.schedules")),
  "api-docs": page(apiDocs, () => t("apiDocs.title")),
  relatorios: page(relatorios, () => t("menu.relatorios")),
  "service-panel": page(servicePanel, () => t("menu.servicePanel")),
  webhooks: page(webhooks, () => t("webhooks.title")),
  "audit-log": page(auditLog, () => t("audit.title")),
  chats: page(chats, () => t("menu.chats")),
  kanban: page(kanban, () => t("menu.kanban")),
  ratings: page(ratings, () => t("menu.ratings")),
  oportunidades: page(oportunidades, () => t("menu.oportunidades")),
  wallets: page(wallets, () => t("menu.wallets")),
  integrations: page(integrations, () => t("menu.integrations")),
  todolist: page(todolist, () => t("menu.todolist")),
  "ai-module": page(aiModule, () => t("menu.aiModule")),
  campaigns: page(campaigns, () => t("menu.campaigns")),
  "contact-lists": page(contactLists, () => t("menu.contactLists")),
  "contact-list-items": page(contactListItems, () => t("menu.contactLists")),
  "campaign-report": page(campaignReport, () => t("campaignReport.title")),
  "campaigns-config": page(campaignsConfig, () => t("menu.campaignsConfig")),
  financeiro: page(financeiro, () => t("menu.financeiro")),
  /** What a viewer gets on a page they may not open (server/pages/mod.ts). */
  gate: { component: ({ ctx }) => AdminRoute({ ctx, children: null }), title: () => t("gate.noPermission") },
};
