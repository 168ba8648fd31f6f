/**
 * Where every API area is mounted. One line per area; an area's file owns its paths.
 * Keep this list short and sorted by area; add your area's line here.
 */
import type { Hono } from "hono";
import type { AppEnv } from "../deps.ts";
import { companyRoutes } from "./companies.ts";
import { helpRoutes } from "./helps.ts";
import { planRoutes } from "./plans.ts";
import { settingRoutes } from "./settings.ts";
import { settingUploadRoutes } from "./settings_uploads.ts";
import { signupRoutes } from "./signup.ts";
import { passwordResetRoutes } from "./password_reset.ts";
import { userRoutes } from "./users.ts";
import { contactRoutes } from "./contacts.ts";
import { walletRoutes } from "./wallets.ts";
import { contactImportRoutes } from "./contact_import.ts";
import { contactExportRoutes } from "./contact_export.ts";
import { queueRoutes } from "./queues.ts";
import { queueOptionRoutes } from "./queue_options.ts";
import { tagRoutes } from "./tags.ts";
import { ticketTagRoutes } from "./ticket_tags.ts";
import { quickMessageRoutes } from "./quick_messages.ts";
import { ticketNoteRoutes } from "./ticket_notes.ts";
import { oportunidadeRoutes } from "./oportunidades.ts";
import { routeWithSlash } from "./slash.ts";
import { ghostMessageRoutes, messageRoutes } from "./messages.ts";
import { mediaRoutes } from "../media/routes.ts";
import { whatsappRoutes } from "./whatsapps.ts";
import { sessionRoutes } from "./sessions.ts";
import { simulatorRoutes } from "./simulator.ts";
import { webhookRoutes } from "./webhooks.ts";
import { cloudApiConnectionRoutes, cloudApiMessageRoutes } from "./cloudapi.ts";
import { ticketRoutes } from "./tickets.ts";
import { groupRoutes } from "./groups.ts";
import { announcementRoutes, userAnnouncementRoutes } from "./announcements.ts";
import { ticketTrackingRoutes } from "./ticket_tracking.ts";
import { externalMessageRoutes } from "./external_messages.ts";
import { ticketReportRoutes } from "./ticket_report.ts";
import { servicePanelRoutes } from "./service_panel.ts";

export function mountAreas(app: Hono<AppEnv>): void {
  app.route("/companies", signupRoutes());
  app.route("/users", passwordResetRoutes());
  routeWithSlash(app, "/companies", companyRoutes());
  routeWithSlash(app, "/helps", helpRoutes());
  routeWithSlash(app, "/plans", planRoutes());
  routeWithSlash(app, "/settings", settingRoutes());
  app.route("/", settingUploadRoutes());
  routeWithSlash(app, "/users", userRoutes());
  routeWithSlash(app, "/contacts", contactRoutes());
  app.route("/wallets", walletRoutes());
  app.route("/contacts", contactImportRoutes());
  app.route("/exportar", contactExportRoutes());
  routeWithSlash(app, "/whatsapp", whatsappRoutes());
  app.route("/whatsapp", cloudApiConnectionRoutes());
  app.route("/", sessionRoutes());
  app.route("/simulator", simulatorRoutes());
  app.route("/webhooks", webhookRoutes());
  routeWithSlash(app, "/queue", queueRoutes());
  routeWithSlash(app, "/queue-options", queueOptionRoutes());
  routeWithSlash(app, "/tags", tagRoutes());
  app.route("/ticket-tags", ticketTagRoutes());
  routeWithSlash(app, "/quick-messages", quickMessageRoutes());
  app.route("/ticket-notes", ticketNoteRoutes());
  routeWithSlash(app, "/oportunidade", oportunidadeRoutes());
  app.route("/messages", cloudApiMessageRoutes());
  app.route("/messages", messageRoutes());
  app.route("/messages-ghost", ghostMessageRoutes());
  app.route("/media", mediaRoutes());
  app.route("/", ticketRoutes());
  app.route("/", groupRoutes());
  routeWithSlash(app, "/announcements", announcementRoutes());
  app.route("/user-announcements", userAnnouncementRoutes());
  app.route("/", ticketTrackingRoutes());
  app.route("/api/messages", externalMessageRoutes());
  app.route("/ticketreport", ticketReportRoutes());
  routeWithSlash(app, "/service-panel", servicePanelRoutes());
}
