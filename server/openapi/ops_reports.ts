/**
 * Operations of schedules, the dashboard, the ticket report, the service panel and the bot
 * integrations' pickers (spec 000 §3, 001 §2.19, 002 §2.12–§2.14).
 */
import { z } from "zod";
import { AuditEntry, AuditQuery } from "../../domain/audit.ts";
import { DashboardQuery } from "../../domain/dashboard.ts";
import { Rating, RatingInput, RatingSendInput, SurveyAnswerInput } from "../../domain/rating.ts";
import { SearchPage } from "../../domain/paging.ts";
import { ScheduleInput, ScheduleListQuery } from "../../domain/schedule.ts";
import { TicketReportExportQuery, TicketReportQuery } from "../../domain/ticket_report.ts";
import { TypebotListQuery } from "../../domain/typebot.ts";
import { area, type Operation } from "./operation.ts";
import { MessageReply, pageOf } from "./shapes.ts";

const schedules = area("Schedules");
const dashboard = area("Dashboard");
const reports = area("Reports");
const integrations = area("Integrations");
const ratings = area("Ratings");
const survey = area("Public survey", "none");

const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/** Scheduling, reporting and integration pickers. */
export const REPORT_OPERATIONS: Operation[] = [
  schedules.get("/schedules", "Scheduled messages, 20 a page, or a calendar range", {
    query: { ScheduleListQuery },
    access: "plan flag useSchedules",
    errors: ["ERR_PLAN_FEATURE"],
  }),
  schedules.get("/schedules/:id", "One scheduled message", { access: "plan flag useSchedules" }),
  schedules.post("/schedules", "Schedule a message (JSON, or multipart `scheduleData` JSON text plus `file`)", {
    body: { ScheduleInput },
    files: { file: "optional attachment" },
    access: "plan flag useSchedules",
    example: { body: "Lembrete da sua consulta amanhã", contactId: 1, sendAt: "2030-01-15T12:00:00.000Z" },
    errors: ["ERR_PLAN_FEATURE", "ERR_NO_CONTACT_FOUND"],
  }),
  schedules.put("/schedules/:id", "Edit a pending scheduled message", {
    body: { ScheduleInput },
    bodyKind: "patch",
    access: "plan flag useSchedules",
    errors: ["ERR_PLAN_FEATURE", "ERR_CONFLICT"],
  }),
  schedules.delete("/schedules/:id", "Delete a scheduled message", { response: { MessageReply }, access: "plan flag useSchedules" }),

  dashboard.get("/dashboard", "The dashboard's counters for a range, queues and users", {
    query: { DashboardQuery },
    access: "dashboard:view",
  }),
  dashboard.get("/dashboard/xlsx", "The dashboard as a spreadsheet", { query: { DashboardQuery }, response: XLSX, access: "dashboard:view" }),
  dashboard.get("/exportar/baixar/dash", "Path of the dashboard's CSV for the same query", { query: { DashboardQuery }, access: "dashboard:view" }),
  dashboard.get("/exportar/baixar/dash/ratings", "Path of the ratings CSV for the same query", {
    query: { DashboardQuery },
    access: "dashboard:view",
  }),
  dashboard.get("/exportar/dash.csv", "The dashboard's CSV", { query: { DashboardQuery }, response: "text/csv", access: "dashboard:view" }),
  dashboard.get("/exportar/dash-ratings.csv", "The ratings CSV", { query: { DashboardQuery }, response: "text/csv", access: "dashboard:view" }),

  reports.get("/ticketreport/reports", "The ticket report: filtered, paged rows", { query: { TicketReportQuery } }),
  reports.get("/ticketreport/reports/export", "The ticket report as a spreadsheet", { query: { TicketReportExportQuery }, response: XLSX }),
  reports.get("/service-panel", "The service panel: waiting tickets and each user's open ones", { access: "service-panel:view" }),
  reports.get("/audit-log", "The company's audit log, newest first, 20 a page (kept 90 days)", {
    query: { AuditQuery },
    response: { AuditPage: z.object({ records: z.array(AuditEntry), hasMore: z.boolean() }) },
    access: "settings:manage",
  }),

  ratings.get("/ratings", "Satisfaction surveys, 20 a page", { query: { SearchPage }, response: { RatingPage: pageOf("ratings", Rating) } }),
  ratings.get("/ratings/list", "All surveys (the close dialog's choice)"),
  ratings.post("/ratings/messages/:ticketId", "Send a survey to the ticket's customer now", {
    body: { RatingSendInput },
    example: { ratingId: 1 },
    errors: ["ERR_NO_TICKET_FOUND", "ERR_NO_USER_FOUND"],
  }),
  ratings.get("/ratings/:id", "One survey", { response: { Rating } }),
  ratings.post("/ratings", "Create a survey", {
    body: { RatingInput },
    response: { Rating },
    example: { name: "Atendimento", message: "Como você avalia o atendimento?", options: [{ name: "Ruim", value: 1 }, { name: "Ótimo", value: 5 }] },
  }),
  ratings.put("/ratings/:id", "Update a survey", { body: { RatingInput }, bodyKind: "patch", response: { Rating } }),
  ratings.delete("/ratings/:id", "Delete a survey", { response: { MessageReply } }),
  survey.get("/buscarpesquisa/:chavePesquisa", "The public survey a customer's link opens: its options, and whether it was answered", {
    errors: ["ERR_NO_RATING_FOUND"],
  }),
  survey.post("/buscarpesquisa/:chavePesquisa", "The customer's answer (once per ticket; a second is 409)", {
    body: { SurveyAnswerInput },
    example: { value: 5 },
    errors: ["ERR_CONFLICT", "ERR_NOT_FOUND"],
  }),

  integrations.get("/typebot/listworkspaces", "Typebot workspaces (queue editor)", { access: "queues:manage", errors: ["ERR_INTEGRATION_NOT_CONFIGURED", "ERR_INTEGRATION_FAILED"] }),
  integrations.get("/typebot/listtypebots", "Typebot flows of a workspace", {
    query: { TypebotListQuery },
    access: "queues:manage",
    errors: ["ERR_INTEGRATION_NOT_CONFIGURED", "ERR_INTEGRATION_FAILED"],
  }),
  integrations.get("/n8n/listworkFlow", "n8n workflows (queue editor)", { access: "queues:manage", errors: ["ERR_INTEGRATION_NOT_CONFIGURED", "ERR_INTEGRATION_FAILED"] }),
];
