/**
 * Connections API (spec 001 §2.1–2.2, §7): GET/POST /whatsapp, GET/PUT/DELETE /whatsapp/{id}.
 * PUT /whatsapp/{id}/keywords replaces a connection's keyword → code table (settings tab).
 * Rules: one default per company (domain `settleDefault`), greeting required with more than
 * one queue, the plan's `connections` limit, queues must be the company's. A new connection
 * starts its session at once (a simulator shows its QR).
 */
import { Hono } from "hono";
import { companyPlan } from "../../actors/platform/lookup.ts";
import { queues } from "../../actors/queues/collection.ts";
import { sessionRef } from "../../actors/sessions/mod.ts";
import { whatsapps } from "../../actors/whatsapps/collection.ts";
import { AppError, notFound } from "../../domain/errors.ts";
import { can } from "../../domain/permissions.ts";
import {
  checkGreeting,
  heirOfDefault,
  KeywordsInput,
  newConnectionToken,
  newWhatsapp,
  settleCloudApi,
  settleDefault,
  type Whatsapp,
  WhatsappInput,
  WhatsappListQuery,
  type WhatsappView,
  withoutCloudSecrets,
} from "../../domain/whatsapp.ts";
import type { ActorSystem } from "../../actors/_runtime/system.ts";
import type { AppEnv } from "../deps.ts";
import { requireAuth, requirePermission, requireSuper } from "../auth/middleware.ts";
import { idParam, parseBody, parseQuery } from "../http/validate.ts";
import { checkCloudCredentials } from "./cloudapi.ts";
import { recordAudit } from "../audit/record.ts";
import { changedFields } from "../../domain/audit.ts";
import { log } from "../../actors/_runtime/log.ts";

const missing = (id: number | string = "") => () => notFound("ERR_NO_WAPP_FOUND", `Connection ${id} does not exist`);

/** A connection as the client reads it: with its queues (id, name, colour). */
export async function whatsappView(
  system: ActorSystem,
  w: Whatsapp,
  withSession = true,
  withToken = true,
): Promise<WhatsappView> {
  const all = await queues.in(system, w.companyId).records();
  const view: WhatsappView = {
    ...w,
    queues: w.queueIds.map((id) => all.get(id)).filter((q) => q !== undefined)
      .map((q) => ({ id: q.id, name: q.name, color: q.color })),
  };
  if (!withSession) {
    view.qrcode = "";
    view.qrcodeEvo = "";
  }
  if (!withToken) view.token = "";
  // The Cloud API's access token and app secret never leave the server; the verify token
  // only for who sees the connection token (admins).
  return withoutCloudSecrets(view, withToken);
}

async function checkQueues(system: ActorSystem, companyId: number, input: WhatsappInput): Promise<void> {
  const all = await queues.in(system, companyId).records();
  for (const id of [...input.queueIds, ...(input.selectedMoveQueueId ? [input.selectedMoveQueueId] : [])]) {
    if (!all.has(id)) throw notFound("ERR_NO_QUEUE_FOUND", `Queue ${id} does not exist`);
  }
}

/** Applies the input onto a record (new or old). */
function fromInput(input: WhatsappInput, base: Whatsapp): Whatsapp {
  const { provider, token, cloudPhoneNumberId, cloudWabaId, cloudAccessToken, cloudAppSecret, cloudVerifyToken, ...fields } = input;
  return settleCloudApi({ cloudPhoneNumberId, cloudWabaId, cloudAccessToken, cloudAppSecret, cloudVerifyToken }, {
    ...base,
    ...fields,
    queueIds: [...new Set(input.queueIds)],
    provider: provider ?? base.provider,
    token: token.trim() || base.token || newConnectionToken(),
  });
}

/** Stores `next` with the one-default rule, clearing the others' flag in the same transaction. */
function saveWith(system: ActorSystem, companyId: number, build: (view: { now: number; nextId(): number; records: ReadonlyMap<number, Whatsapp> }) => { next: Whatsapp; old?: Whatsapp }) {
  return whatsapps.in(system, companyId).transact((view) => {
    const { next, old } = build(view);
    checkGreeting(next);
    const settled = settleDefault([...view.records.values()], next, old);
    const put = [settled.next];
    for (const id of settled.unset) put.push({ ...view.records.get(id)!, isDefault: false, updatedAt: view.now });
    return { put, reply: settled.next };
  });
}

export function whatsappRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use(requireAuth());

  app.get("/", async (c) => {
    const { system } = c.get("deps");
    const who = c.get("principal");
    const query = parseQuery(c, WhatsappListQuery);
    const companyId = who.super && query.companyId ? query.companyId : who.companyId;
    const list = await whatsapps.in(system, companyId).list();
    const admin = can(who, "connections-page:editOrDeleteConnection");
    // QR codes only for who may pair the phone (the same rule as the live events).
    const pairs = can(who, "connections-page:actionButtons");
    return c.json(await Promise.all(list.map((w) => whatsappView(system, w, query.session !== false && pairs, admin))));
  });

  app.get("/:id", async (c) => {
    const { system } = c.get("deps");
    const who = c.get("principal");
    const id = idParam(c, "id", missing(c.req.param("id")));
    const record = await whatsapps.in(system, who.companyId).get(id);
    if (!record) throw missing(id)();
    const pairs = can(who, "connections-page:actionButtons");
    return c.json(await whatsappView(system, record, pairs, can(who, "connections-page:editOrDeleteConnection")));
  });

  app.post("/", requirePermission("connections-page:addConnection"), async (c) => {
    const deps = c.get("deps");
    const { system } = deps;
    const companyId = c.get("principal").companyId;
    const input = await parseBody(c, WhatsappInput);
    await checkQueues(system, companyId, input);
    await checkCloudCredentials(deps, input);
    const plan = await companyPlan(system, companyId);
    const limit = plan?.connections;
    const created = await saveWith(system, companyId, (view) => {
        if (limit !== undefined && view.records.size >= limit) {
          throw new AppError("ERR_PLAN_LIMIT", {
            status: 403,
            message: `The plan allows ${limit} connections and the company has ${view.records.size}`,
          });
        }
        const now = view.now;
        const base = newWhatsapp(view.nextId(), companyId, now, { name: input.name });
        return { next: fromInput(input, base) };
      });
    await deps.channels.start(companyId, created.id).catch((error) =>
      log.warn(`Starting connection ${created.id} failed:`, { error: String(error) })
    );
    const fresh = await whatsapps.in(system, companyId).get(created.id) ?? created;
    await recordAudit(deps, c.get("principal"), "connection.create", { kind: "connection", id: created.id, name: created.name }, {
      provider: created.provider,
    });
    return c.json(await whatsappView(system, fresh));
  });

  app.put("/:id", requirePermission("connections-page:editOrDeleteConnection"), async (c) => {
    const deps = c.get("deps");
    const { system } = deps;
    const companyId = c.get("principal").companyId;
    const id = idParam(c, "id", missing(c.req.param("id")));
    // Found in the caller's company before the body is judged: another company's id is 404 whatever it sends.
    const current = await whatsapps.in(system, companyId).get(id);
    if (!current) throw missing(id)();
    const input = await parseBody(c, WhatsappInput);
    await checkQueues(system, companyId, input);
    await checkCloudCredentials(deps, input, current);
    const saved = await saveWith(system, companyId, (view) => {
      const old = view.records.get(id);
      if (!old) throw missing(id)();
      return { old, next: { ...fromInput(input, old), updatedAt: view.now } };
    });
    const live = deps.channels.get(companyId, id);
    // A Cloud API connection checks its (maybe new) credentials again.
    if (live && (live.provider !== saved.provider || saved.provider === "cloudapi")) await deps.channels.start(companyId, id);
    const fresh = await whatsapps.in(system, companyId).get(id) ?? saved;
    await recordAudit(deps, c.get("principal"), "connection.update", { kind: "connection", id, name: saved.name }, {
      fields: changedFields(input, current),
    });
    return c.json(await whatsappView(system, fresh));
  });

  // The keyword → code table of the settings' keywords tab (spec 001 §2.4): replaced whole.
  app.put("/:id/keywords", requirePermission("settings:manage"), async (c) => {
    const { system } = c.get("deps");
    const companyId = c.get("principal").companyId;
    const id = idParam(c, "id", missing(c.req.param("id")));
    if (!(await whatsapps.in(system, companyId).get(id))) throw missing(id)();
    const { keywords } = await parseBody(c, KeywordsInput);
    const saved = await whatsapps.in(system, companyId).update(
      id,
      (old, now) => ({ ...old, keywords, updatedAt: now }),
      missing(id),
    );
    return c.json(await whatsappView(system, saved));
  });

  app.delete("/:id", requireSuper(), async (c) => {
    const deps = c.get("deps");
    const { system } = deps;
    const who = c.get("principal");
    const companyId = parseQuery(c, WhatsappListQuery).companyId ?? who.companyId;
    const id = idParam(c, "id", missing(c.req.param("id")));
    const removed = await whatsapps.in(system, companyId).transact((view) => {
      const old = view.records.get(id);
      if (!old) throw missing(id)();
      const heir = heirOfDefault([...view.records.values()], old);
      return { remove: [id], put: heir ? [{ ...heir, isDefault: true, updatedAt: view.now }] : [], reply: old };
    });
    await recordAudit(deps, who, "connection.delete", { kind: "connection", id, name: removed.name }, {}, { companyId });
    await deps.channels.forget(companyId, id);
    await sessionRef(system, companyId, id).ask("cancelReconnect", undefined);
    return c.json({ message: "Whatsapp deleted." });
  });

  return app;
}
