/**
 * Operations of sign-in, sign-up, password recovery, users, companies, plans, helps,
 * settings, branding and announcements (spec 000 §4, 001 §2–§4, 002 §2.15).
 */
import { z } from "zod";
import { Announcement, AnnouncementInput, ReadMarkInput } from "../../domain/announcement.ts";
import { CompanyInput, SignupInput } from "../../domain/company.ts";
import { ClusterNode, CompanyMove } from "../../domain/cluster.ts";
import { CompanyHoursInput } from "../../domain/company_hours.ts";
import { Help, HelpInput } from "../../domain/help.ts";
import { SearchPage } from "../../domain/paging.ts";
import { ResetPasswordInput, ResetRequest, ResetTokenCheck } from "../../domain/password_reset.ts";
import { Plan, PlanInput, PlanUpdate } from "../../domain/plan.ts";
import { SettingUpdate } from "../../domain/settings.ts";
import { LoginInput, UserCreate, UserListQuery, UserUpdate } from "../../domain/user.ts";
import { area, type Operation } from "./operation.ts";
import { MessageReply, pageOf, SessionReply, SettingEntry, UserView } from "./shapes.ts";

const PlanList = z.array(Plan);
const HelpList = z.array(Help);
const SettingList = z.array(SettingEntry);

const auth = area("Auth", "none");
const signup = area("Sign-up", "none");
const users = area("Users");
const companies = area("Companies");
const plans = area("Plans");
const helps = area("Helps");
const settings = area("Settings");
const announcements = area("Announcements");

/** Sign-in and accounts. */
export const ACCESS_OPERATIONS: Operation[] = [
  auth.post("/auth/login", "Sign in: access token in the body, refresh token as the httpOnly cookie `jrt`", {
    body: { LoginInput },
    response: { SessionReply },
    example: { email: "admin@demo.local", password: "demo1234" },
    errors: ["ERR_INVALID_CREDENTIALS", "ERR_TOO_MANY_ATTEMPTS"],
    description: "A new sign-in of the same user publishes on the company's `auth` channel: other tabs sign out.",
  }),
  auth.post("/auth/refresh_token", "New access token from the refresh cookie", {
    auth: "refreshCookie",
    response: { SessionReply },
    errors: ["ERR_SESSION_EXPIRED"],
  }),
  auth.delete("/auth/logout", "Sign out and clear the refresh cookie", { auth: "bearer", response: { MessageReply } }),
  auth.get("/auth/me", "The signed-in user", { auth: "bearer" }),

  signup.get("/companies/cadastro", "Whether sign-up is open, and the trial length"),
  signup.post("/companies/cadastro", "Sign up a company with its first admin", {
    body: { SignupInput },
    created: true,
    errors: ["ERR_USER_CREATION_DISABLED", "ERR_DUPLICATED_EMAIL", "ERR_NO_PLAN_FOUND"],
  }),
  signup.post("/users/sendemail", "Send a password-recovery token by e-mail, if the e-mail has an account (answered alike either way)", {
    body: { ResetRequest },
    example: { email: "admin@demo.local" },
    errors: ["ERR_EMAIL_NOT_CONFIGURED", "ERR_TOO_MANY_ATTEMPTS"],
  }),
  signup.post("/users/checkToken", "Check a recovery token", { body: { ResetTokenCheck }, errors: ["ERR_INVALID_RESET_TOKEN"] }),
  signup.post("/users/updatePassword", "Set a new password with a recovery token", {
    body: { ResetPasswordInput },
    errors: ["ERR_INVALID_RESET_TOKEN"],
  }),

  users.get("/users", "Users of the company, 20 a page", { query: { UserListQuery }, access: "users:view" }),
  users.get("/users/list", "All users of the company (pickers)", { query: { UserListQuery } }),
  users.get("/users/:id", "One user", { response: { UserView }, errors: ["ERR_NO_USER_FOUND"] }),
  users.post("/users", "Create a user", {
    body: { UserCreate },
    response: { UserView },
    access: "users:manage",
    example: { name: "Ana Souza", email: "ana@demo.local", password: "secret123", profile: "user", queueIds: [] },
    errors: ["ERR_DUPLICATED_EMAIL", "ERR_PLAN_LIMIT"],
  }),
  users.put("/users/:id", "Update a user (an empty password keeps the old one; one's own new password or e-mail needs currentPassword)", {
    body: { UserUpdate },
    response: { UserView },
    errors: ["ERR_NO_USER_FOUND", "ERR_DUPLICATED_EMAIL", "ERR_TOO_MANY_ATTEMPTS"],
  }),
  users.delete("/users/:id", "Delete a user", { response: { MessageReply }, access: "users:manage", errors: ["ERR_NO_USER_FOUND"] }),

  companies.get("/companies", "Companies, 20 a page", { query: { SearchPage }, access: "super" }),
  companies.get("/companies/list", "All companies", { access: "super" }),
  companies.get("/companies/listPlan/:companyId", "A company with its plan (works with a billing-only token)"),
  companies.get("/companies/:id", "One company (its own, or any for a super user)", { errors: ["ERR_NO_COMPANY_FOUND"] }),
  companies.post("/companies", "Create a company", { body: { CompanyInput }, created: true, access: "super" }),
  companies.post("/companies/internal", "Create a company with its admin, as sign-up does", {
    body: { SignupInput },
    created: true,
    access: "super",
  }),
  companies.put("/companies/:id/schedules", "Replace the company's opening hours", {
    body: { CompanyHoursInput },
    access: "admin of the company",
  }),
  companies.put("/companies/:id", "Update a company", { body: { CompanyInput }, access: "super", errors: ["ERR_NO_COMPANY_FOUND"] }),
  companies.delete("/companies/:id", "Delete a company and all its data", { access: "super", errors: ["ERR_NO_COMPANY_FOUND"] }),
  companies.post("/companies/:id/move", "Move a company to another process of the cluster (issue #35): its owner lets it go, the chosen process takes it", {
    body: { CompanyMove },
    response: { CompanyMoving: z.object({ moving: z.literal(true), node: z.string() }) },
    access: "super",
    errors: ["ERR_NO_COMPANY_FOUND"],
  }),
  companies.get("/cluster/nodes", "The processes sharing the store, their load, companies and live sessions (empty for a process alone)", {
    response: { ClusterNodes: z.object({ nodes: z.array(ClusterNode) }) },
    access: "super",
  }),

  plans.get("/plans/list", "Plans offered (public)", { auth: "none", response: { PlanList } }),
  plans.get("/plans/register", "Plans offered at sign-up (public)", { auth: "none", response: { PlanList } }),
  plans.get("/plans/all", "All plans (billing-only token allowed)", { response: { PlanList } }),
  plans.get("/plans", "Plans, 20 a page", { query: { SearchPage }, response: { PlanPage: pageOf("plans", Plan) }, access: "super" }),
  plans.get("/plans/:id", "One plan", { response: { Plan }, errors: ["ERR_NO_PLAN_FOUND"] }),
  plans.post("/plans", "Create a plan", { body: { PlanInput }, response: { Plan }, created: true, access: "super" }),
  plans.put("/plans/:id", "Update a plan", { body: { PlanUpdate }, response: { Plan }, access: "super", errors: ["ERR_NO_PLAN_FOUND"] }),
  plans.delete("/plans/:id", "Delete a plan", { access: "super", errors: ["ERR_NO_PLAN_FOUND"] }),

  helps.get("/helps", "Help videos, 20 a page", { query: { SearchPage }, response: { HelpPage: pageOf("records", Help) } }),
  helps.get("/helps/list", "All help videos", { response: { HelpList } }),
  helps.get("/helps/:id", "One help video", { response: { Help }, errors: ["ERR_NO_HELP_FOUND"] }),
  helps.post("/helps", "Create a help video", { body: { HelpInput }, response: { Help }, created: true, access: "super" }),
  helps.put("/helps/:id", "Update a help video", { body: { HelpInput }, response: { Help }, access: "super" }),
  helps.delete("/helps/:id", "Delete a help video", { access: "super", errors: ["ERR_NO_HELP_FOUND"] }),

  settings.get("/settings", "Every setting of the company as `{ key, value }`", { response: { SettingList } }),
  settings.get("/settings/:key", "One setting", { response: { SettingEntry }, errors: ["ERR_NO_SETTING_FOUND"] }),
  settings.put("/settings/:key", "Change one setting", {
    body: { SettingUpdate },
    response: { SettingEntry },
    access: "settings:manage",
    example: { value: "enabled" },
    errors: ["ERR_NO_SETTING_FOUND"],
  }),
  settings.post("/settings/media-upload", "Upload the platform logo", { bodyKind: "multipart", files: { file: "image" }, access: "super" }),
  settings.post("/settings/doc-upload", "Upload a platform document (terms, privacy)", { bodyKind: "multipart", files: { file: "PDF" }, access: "super" }),
  settings.post("/settings/cert-upload", "Upload the platform certificate", { bodyKind: "multipart", files: { file: "certificate" }, access: "super" }),
  settings.get("/branding/files", "The platform's uploaded logo, documents and certificate", { access: "super" }),
  settings.get("/branding/docs/:ref", "An uploaded platform document", { auth: "none", response: "application/pdf", errors: ["ERR_NOT_FOUND"] }),
  settings.get("/branding/:destination", "An uploaded platform logo", { auth: "none", response: "image/*", errors: ["ERR_NOT_FOUND"] }),

  announcements.get("/announcements/unread/:companyId", "Announcements the user has not read"),
  announcements.get("/announcements", "Announcements, 20 a page", {
    query: { SearchPage },
    response: { AnnouncementPage: pageOf("records", Announcement) },
    access: "super",
  }),
  announcements.get("/announcements/:id", "One announcement", { access: "super" }),
  announcements.post("/announcements", "Create an announcement (JSON or multipart with a file)", {
    body: { AnnouncementInput },
    created: true,
    access: "super",
    example: { title: "Maintenance", text: "Sunday 2 a.m.", priority: 1, status: true },
  }),
  announcements.put("/announcements/:id", "Update an announcement", { body: { AnnouncementInput }, bodyKind: "patch", access: "super" }),
  announcements.delete("/announcements/:id", "Delete an announcement", { response: { MessageReply }, access: "super" }),
  announcements.post("/announcements/:id/media-upload", "Attach a file to an announcement", {
    bodyKind: "multipart",
    files: { file: "any file" },
    access: "super",
  }),
  announcements.delete("/announcements/:id/media-upload", "Remove an announcement's file", { access: "super" }),
  announcements.post("/user-announcements/:id/read", "Mark an announcement read", { body: { ReadMarkInput } }),
];
