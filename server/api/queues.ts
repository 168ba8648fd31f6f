/**
 * Queues (spec 001 §2.15, §3, §5, §7): everyone reads them in prioridade order; admins
 * (`queues:manage`) create, edit and delete. A colour is unique within the company
 * (`ERR_QUEUE_COLOR_ALREADY_EXISTS`) and the plan's `queues` caps how many exist (0 = no cap);
 * both checks run inside the collection's transaction, so concurrent creations cannot race
 * past them.
 */
import { Hono } from "hono";
import { z } from "zod";
import { companyPlan } from "../../actors/platform/lookup.ts";
import { queueOptions } from "../../actors/queue_options/collection.ts";
import { queues } from "../../actors/queues/collection.ts";
import { AppError, notFound } from "../../domain/errors.ts";
import type { Principal } from "../../domain/permissions.ts";
import { byPriority, colorOwner, type Queue, QueueInput, QueueListQuery } from "../../domain/queue.ts";
import { requireAuth, requirePermission } from "../auth/middleware.ts";
import type { AppDeps, AppEnv } from "../deps.ts";
import { idParam, parseBody, parseQuery, parseWith } from "../http/validate.ts";
import { deleteMediaFiles } from "./media_links.ts";

/** The 404 of a queue that does not exist in the company. */
export const queueMissing = (id: number | string) =>
  notFound("ERR_NO_QUEUE_FOUND", `Queue ${id} does not exist`);

const colorTaken = (color: string, owner: Queue) =>
  new AppError("ERR_QUEUE_COLOR_ALREADY_EXISTS", {
    status: 400,
    message: `Colour ${color} is already used by queue ${owner.id} (${owner.name})`,
    fields: { color: "ERR_QUEUE_COLOR_ALREADY_EXISTS" },
  });

/** The company a list reads: the caller's, or the one a super user names. */
function scopeOf(who: Principal, named: number | null | undefined): number {
  return who.super && named ? named : who.companyId;
}

/** Removes the chatbot options of a deleted queue (in chunks under KV's atomic limit). */
async function dropQueueOptions(deps: AppDeps, companyId: number, queueId: number) {
  const coll = queueOptions.in(deps.system, companyId);
  for (;;) {
    const files = await coll.transact((tx) => {
      const ids: number[] = [];
      const media: string[] = [];
      for (const o of tx.records.values()) {
        if (o.queueId !== queueId) continue;
        ids.push(o.id);
        if (o.mediaPath) media.push(o.mediaPath);
        if (ids.length === 300) break;
      }
      return { remove: ids, reply: ids.length ? media : null };
    });
    if (files === null) return;
    await deleteMediaFiles(deps, companyId, files);
  }
}

/** The queue routes, mounted at `/queue`. */
export function queueRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const auth = requireAuth();
  const manage = requirePermission("queues:manage");

  app.get("/", auth, async (c) => {
    const { companyId } = parseQuery(c, QueueListQuery);
    const scope = scopeOf(c.get("principal"), companyId);
    return c.json(byPriority(await queues.in(c.get("deps").system, scope).list()));
  });

  app.get("/:id", auth, async (c) => {
    const id = idParam(c, "id", () => queueMissing(c.req.param("id")));
    const queue = await queues.in(c.get("deps").system, c.get("principal").companyId).get(id);
    if (!queue) throw queueMissing(id);
    return c.json(queue);
  });

  app.post("/", auth, manage, async (c) => {
    const input = await parseBody(c, QueueInput);
    const { system } = c.get("deps");
    const companyId = c.get("principal").companyId;
    const limit = (await companyPlan(system, companyId))?.queues ?? 0;
    const queue = await queues.in(system, companyId).transact((view) => {
      const owner = colorOwner(view.records.values(), input.color);
      if (owner) throw colorTaken(input.color, owner);
      if (limit > 0 && view.records.size >= limit) {
        throw new AppError("ERR_PLAN_LIMIT", {
          status: 403,
          message: `The plan allows ${limit} queues; company ${companyId} has ${view.records.size}`,
        });
      }
      const record: Queue = {
        ...input,
        id: view.nextId(),
        companyId,
        createdAt: view.now,
        updatedAt: view.now,
      };
      return { put: [record], reply: record };
    });
    return c.json(queue);
  });

  app.put("/:id", auth, manage, async (c) => {
    const id = idParam(c, "id", () => queueMissing(c.req.param("id")));
    const coll = queues.in(c.get("deps").system, c.get("principal").companyId);
    const old = await coll.get(id);
    if (!old) throw queueMissing(id);
    const body = await parseBody(c, z.record(z.string(), z.unknown()));
    // Fields not sent keep their stored values; the merged whole is validated as on create.
    const input = parseWith(QueueInput, { ...old, ...body });
    const queue = await coll.update(
      id,
      (current, now) => ({ ...current, ...input, updatedAt: now }),
      () => queueMissing(id),
      (records, next) => {
        const owner = colorOwner(records.values(), next.color, id);
        if (owner) throw colorTaken(next.color, owner);
      },
    );
    return c.json(queue);
  });

  app.delete("/:id", auth, manage, async (c) => {
    const id = idParam(c, "id", () => queueMissing(c.req.param("id")));
    const deps = c.get("deps");
    const companyId = c.get("principal").companyId;
    await queues.in(deps.system, companyId).remove(id, () => queueMissing(id));
    await dropQueueOptions(deps, companyId, id);
    // Users' queueIds and tickets of the queue belong to their areas (company-{id}-queue
    // delete event).
    return c.json({ message: "Queue deleted" });
  });

  return app;
}
