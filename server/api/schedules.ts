/**
 * Scheduled messages (spec 001 §2.19, §3 Schedule, §7; 000 ticket options): GET /schedules
 * (searchParam, pageNumber, contactId, userId, status, and start/end for the calendar's
 * visible range → { schedules, count, hasMore }), GET/PUT/DELETE /schedules/{id}, POST
 * /schedules. POST and PUT take multipart with `file` and `scheduleData` (JSON text) as the
 * spec's client sends them, or plain JSON. Every route needs the plan's useSchedules (403
 * ERR_PLAN_FEATURE with the spec's upgrade text). Every user of the company sees its
 * schedules (the spec's calendar shows them all); a plain user assigns a ticket only to
 * itself. Edit is refused (409) unless PENDENTE. Changes go out on `company-{id}-schedule`.
 */
import { Hono, type MiddlewareHandler } from "hono";
import { getContact } from "../../actors/contacts/mod.ts";
import { companyPlan } from "../../actors/platform/lookup.ts";
import {
  getSchedule,
  type ScheduleDraft,
  scheduleMissing,
  schedulesList,
  schedulesOf,
  viewOfSchedule,
} from "../../actors/schedules/mod.ts";
import { AppError, forbidden } from "../../domain/errors.ts";
import { UPGRADE_TEXT } from "../../domain/external_message.ts";
import { paginate } from "../../domain/paging.ts";
import type { Principal } from "../../domain/permissions.ts";
import { planAllows } from "../../domain/plan.ts";
import {
  type Schedule,
  ScheduleInput,
  ScheduleListQuery,
  scheduleMatches,
  schedulePageSize,
} from "../../domain/schedule.ts";
import { requireAuth } from "../auth/middleware.ts";
import type { AppDeps, AppEnv } from "../deps.ts";
import { idParam, parseQuery, parseWith } from "../http/validate.ts";
import { deleteMediaFiles, saveMediaFile, signedMediaUrl } from "./media_links.ts";
import { requireCompanyRefs } from "./company_refs.ts";
import { readUpload } from "./upload_field.ts";

/** 403 unless the company's plan has useSchedules (spec 000 §1, 002 §2.1). */
function requireSchedulesPlan(): MiddlewareHandler<AppEnv> {
  return async function requireSchedulesPlanMiddleware(c, next) {
    const { companyId } = c.get("principal");
    if (!planAllows(await companyPlan(c.get("deps").system, companyId), "useSchedules")) {
      throw new AppError("ERR_PLAN_FEATURE", { status: 403, message: UPGRADE_TEXT });
    }
    await next();
  };
}

/** The API view: the record, its contact and user, and a signed media URL. */
async function view(deps: AppDeps, s: Schedule) {
  return { ...await viewOfSchedule(deps.system, s), mediaUrl: await signedMediaUrl(deps, s.companyId, s.mediaPath) };
}

/** The body's fields: `scheduleData` (JSON text) of a multipart body, or the body itself. */
function scheduleFields(fields: Record<string, unknown> | null): unknown {
  // A JSON body of `null` (or a bare value) has no fields: the schema refuses it, not a TypeError.
  if (typeof fields !== "object" || fields === null) return fields;
  const data = fields.scheduleData;
  if (typeof data !== "string") return fields;
  try {
    return JSON.parse(data);
  } catch {
    throw new AppError("ERR_VALIDATION", { status: 400, message: "scheduleData is not valid JSON" });
  }
}

/** The draft fields of an input, after checking that what it names exists in the company. */
async function draftOf(deps: AppDeps, who: Principal, input: ScheduleInput): Promise<Omit<ScheduleDraft, "mediaPath" | "mediaName" | "createdBy">> {
  const { system } = deps;
  const { companyId } = who;
  const whatsappId = input.whatsappId ?? null;
  const queueId = input.queueId ?? null;
  const atribuirUser = input.atribuirUser ?? false;
  const userId = atribuirUser ? input.userId ?? who.id : null;
  // A user named but not assigned is checked too: another company's id is never accepted.
  await requireCompanyRefs(system, companyId, { contact: input.contactId, whatsapp: whatsappId, queue: queueId, user: [input.userId, userId] });
  if (userId !== null) {
    if (userId !== who.id && who.profile === "user" && !who.super) {
      throw forbidden(`A user assigns a scheduled ticket only to itself, not to user ${userId}`);
    }
  }
  return {
    contactId: input.contactId,
    body: input.body,
    sendAt: input.sendAt,
    geral: input.geral ?? input.openTicket ?? false,
    queueId,
    whatsappId,
    atribuirUser,
    userId,
    repeatEvery: input.repeatEvery ?? null,
    selectDaysRecorrenci: input.repeatEvery ? input.selectDaysRecorrenci : "",
  };
}

/** The schedule routes, mounted at `/schedules`. */
export function scheduleRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const auth = [requireAuth(), requireSchedulesPlan()] as const;

  app.get("/", ...auth, async (c) => {
    const q = parseQuery(c, ScheduleListQuery);
    const deps = c.get("deps");
    const { companyId } = c.get("principal");
    const all = await schedulesList(deps.system, companyId);
    const hits: Schedule[] = [];
    for (const s of all) {
      if (scheduleMatches(s, q, await getContact(deps.system, companyId, s.contactId))) hits.push(s);
    }
    hits.sort((a, b) => a.sendAt - b.sendAt || a.id - b.id);
    const page = paginate(hits, q.pageNumber, schedulePageSize(q));
    const schedules = await Promise.all(page.rows.map((s) => view(deps, s)));
    return c.json({ schedules, count: page.count, hasMore: page.hasMore });
  });

  app.get("/:id", ...auth, async (c) => {
    const id = idParam(c, "id", () => scheduleMissing(c.req.param("id")));
    const deps = c.get("deps");
    const s = await getSchedule(deps.system, c.get("principal").companyId, id);
    if (!s) throw scheduleMissing(id);
    return c.json(await view(deps, s));
  });

  app.post("/", ...auth, async (c) => {
    const deps = c.get("deps");
    const who = c.get("principal");
    const { file, fields } = await readUpload(c);
    const draft = await draftOf(deps, who, parseWith(ScheduleInput, scheduleFields(fields)));
    const mediaPath = file ? await saveMediaFile(deps, who.companyId, file) : null;
    const created = await schedulesOf(deps.system, who.companyId).ask("create", {
      ...draft,
      mediaPath,
      mediaName: file ? file.name : null,
      createdBy: who.id,
    }).catch(async (error: unknown) => {
      if (mediaPath) await deleteMediaFiles(deps, who.companyId, [mediaPath]);
      throw error;
    });
    return c.json(await view(deps, created));
  });

  app.put("/:id", ...auth, async (c) => {
    const id = idParam(c, "id", () => scheduleMissing(c.req.param("id")));
    const deps = c.get("deps");
    const who = c.get("principal");
    const old = await getSchedule(deps.system, who.companyId, id);
    if (!old) throw scheduleMissing(id);
    const { file, fields } = await readUpload(c);
    const raw = scheduleFields(fields) as Record<string, unknown>;
    const input = parseWith(ScheduleInput, {
      body: old.body,
      contactId: old.contactId,
      sendAt: old.sendAt,
      geral: old.geral,
      queueId: old.queueId,
      whatsappId: old.whatsappId,
      atribuirUser: old.atribuirUser,
      userId: old.userId,
      repeatEvery: old.repeatEvery,
      selectDaysRecorrenci: old.selectDaysRecorrenci,
      ...raw,
    });
    const draft = await draftOf(deps, who, input);
    // A new file replaces the media; an explicit `mediaPath: null` without a file removes it.
    const dropMedia = !file && raw && typeof raw === "object" && "mediaPath" in raw && raw.mediaPath === null;
    const mediaPath = file ? await saveMediaFile(deps, who.companyId, file) : dropMedia ? null : old.mediaPath;
    const mediaName = file ? file.name : dropMedia ? null : old.mediaName;
    const { before, after } = await schedulesOf(deps.system, who.companyId).ask("update", {
      id,
      change: { ...draft, mediaPath, mediaName },
    }).catch(async (error: unknown) => {
      if (file && mediaPath) await deleteMediaFiles(deps, who.companyId, [mediaPath]);
      throw error;
    });
    if (before.mediaPath && before.mediaPath !== after.mediaPath) {
      await deleteMediaFiles(deps, who.companyId, [before.mediaPath]);
    }
    return c.json(await view(deps, after));
  });

  app.delete("/:id", ...auth, async (c) => {
    const id = idParam(c, "id", () => scheduleMissing(c.req.param("id")));
    const deps = c.get("deps");
    const { companyId } = c.get("principal");
    const removed = await schedulesOf(deps.system, companyId).ask("remove", { id });
    if (removed.mediaPath) await deleteMediaFiles(deps, companyId, [removed.mediaPath]);
    return c.json({ message: "Schedule deleted" });
  });

  return app;
}
