/**
 * The chatbot option tree of a queue (spec 001 §2.15, §3, §4, §7). Admins (`queues:manage`)
 * add, edit, move and delete options; a move (PUT with a new `option`) and a delete renumber
 * the siblings 1..n in the same transaction. PUT accepts JSON or multipart with a media file
 * (image, video or PDF) and `clearMedia`.
 */
import { Hono } from "hono";
import { deleteMediaFiles, saveMediaFile, signedMediaUrl } from "./media_links.ts";
import { getCompanyUser } from "../../actors/platform/lookup.ts";
import { queueOptions } from "../../actors/queue_options/collection.ts";
import { queues } from "../../actors/queues/collection.ts";
import { AppError, notFound } from "../../domain/errors.ts";
import {
  OPTION_DEFAULTS,
  optionProblem,
  placeAt,
  type QueueOption,
  QueueOptionCreate,
  QueueOptionQuery,
  QueueOptionUpdate,
  renumber,
  siblingsOf,
  subtreeIds,
} from "../../domain/queue_option.ts";
import { requireAuth, requirePermission } from "../auth/middleware.ts";
import type { AppDeps, AppEnv } from "../deps.ts";
import { idParam, parseQuery, parseWith } from "../http/validate.ts";
import { queueMissing } from "./queues.ts";
import { readUpload, requireExtension } from "./upload_field.ts";

/** Media types of a bot option (spec 001 §5: image, video or pdf). */
const OPTION_MEDIA = [".png", ".jpg", ".jpeg", ".gif", ".webp", ".mp4", ".pdf"] as const;

const optionMissing = (id: number | string) =>
  notFound("ERR_NOT_FOUND", `Queue option ${id} does not exist`);

type TargetFields = Pick<QueueOption, "queueOptionsId" | "queueUsersId">;

/**
 * Refuses an option its type cannot work with (spec 001 §3: a queue option's target queue,
 * an attendant option's user, an n8n option's URL) and targets outside the company (404,
 * as for any record of another tenant). A target is looked up when this request sends it
 * or the type uses it, so an unused stale one (its queue since deleted) blocks no other edit.
 */
async function checkTargets(
  deps: AppDeps,
  companyId: number,
  option: Pick<QueueOption, "title" | "queueType" | "message"> & TargetFields,
  sent: Partial<TargetFields>,
) {
  const fields = optionProblem(option);
  if (fields) {
    throw new AppError("ERR_VALIDATION", {
      status: 400,
      message: `Option "${option.title}" of type ${option.queueType} is incomplete: ${Object.keys(fields).join(", ")}`,
      fields,
    });
  }
  const queueId = sent.queueOptionsId ?? (option.queueType === "queue" ? option.queueOptionsId : null);
  const userId = sent.queueUsersId ?? (option.queueType === "attendent" ? option.queueUsersId : null);
  if (queueId !== null && !(await queues.in(deps.system, companyId).get(queueId))) {
    throw queueMissing(queueId);
  }
  if (userId !== null && !(await getCompanyUser(deps.system, companyId, userId))) {
    throw notFound("ERR_NO_USER_FOUND", `User ${userId} does not exist in company ${companyId}`);
  }
}

/** An option as the API shows it: the record plus a signed `mediaUrl`. */
async function view(deps: AppDeps, option: QueueOption) {
  return { ...option, mediaUrl: await signedMediaUrl(deps, option.companyId, option.mediaPath) };
}

/** The queue-option routes, mounted at `/queue-options`. */
export function queueOptionRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const auth = requireAuth();
  const manage = requirePermission("queues:manage");

  app.get("/", auth, async (c) => {
    const query = parseQuery(c, QueueOptionQuery);
    const deps = c.get("deps");
    const all = await queueOptions.in(deps.system, c.get("principal").companyId).list();
    const parent = query.parentId === undefined
      ? undefined
      : query.parentId === -1
      ? null
      : query.parentId;
    const hits = all
      .filter((o) => o.queueId === query.queueId && (parent === undefined || o.parentId === parent))
      .sort((a, b) => (a.parentId ?? 0) - (b.parentId ?? 0) || a.option - b.option);
    return c.json(await Promise.all(hits.map((o) => view(deps, o))));
  });

  app.get("/:id", auth, async (c) => {
    const id = idParam(c, "id", () => optionMissing(c.req.param("id")));
    const deps = c.get("deps");
    const option = await queueOptions.in(deps.system, c.get("principal").companyId).get(id);
    if (!option) throw optionMissing(id);
    return c.json(await view(deps, option));
  });

  app.post("/", auth, manage, async (c) => {
    const { fields } = await readUpload(c);
    const input = parseWith(QueueOptionCreate, fields);
    const deps = c.get("deps");
    const companyId = c.get("principal").companyId;
    if (!(await queues.in(deps.system, companyId).get(input.queueId))) {
      throw queueMissing(input.queueId);
    }
    const message = input.message ?? OPTION_DEFAULTS.message;
    await checkTargets(deps, companyId, { ...input, message, title: input.title ?? "" }, input);
    const option = await queueOptions.in(deps.system, companyId).transact((tx) => {
      const parent = input.parentId === null ? undefined : tx.records.get(input.parentId);
      if (input.parentId !== null && (!parent || parent.queueId !== input.queueId)) {
        throw optionMissing(input.parentId);
      }
      const siblings = siblingsOf(tx.records.values(), input.queueId, input.parentId);
      const record: QueueOption = {
        id: tx.nextId(),
        companyId,
        queueId: input.queueId,
        parentId: input.parentId,
        title: input.title ||
          (input.parentId === null ? OPTION_DEFAULTS.rootTitle : OPTION_DEFAULTS.childTitle),
        message,
        queueType: input.queueType,
        option: siblings.length + 1,
        queueOptionsId: input.queueOptionsId,
        queueUsersId: input.queueUsersId,
        mediaPath: null,
        mediaName: null,
        createdAt: tx.now,
        updatedAt: tx.now,
      };
      const ordered = placeAt(siblings, record, input.option ?? siblings.length + 1);
      const put = renumber(ordered, tx.now);
      if (!put.some((o) => o.id === record.id)) put.push(record);
      return { put, reply: put.find((o) => o.id === record.id)! };
    });
    return c.json(await view(deps, option));
  });

  app.put("/:id", auth, manage, async (c) => {
    const id = idParam(c, "id", () => optionMissing(c.req.param("id")));
    const deps = c.get("deps");
    const companyId = c.get("principal").companyId;
    const coll = queueOptions.in(deps.system, companyId);
    const old = await coll.get(id);
    if (!old) throw optionMissing(id);
    const { file, fields } = await readUpload(c);
    const patch = parseWith(QueueOptionUpdate, fields);
    if (file) requireExtension(file, OPTION_MEDIA);
    const { clearMedia, ...rest } = patch;
    await checkTargets(deps, companyId, { ...old, ...rest }, rest);
    const saved = file ? await saveMediaFile(deps, companyId, file) : undefined;
    let replaced: string | null = null;
    const option = await coll.transact((tx) => {
      const current = tx.records.get(id);
      if (!current) throw optionMissing(id);
      const next: QueueOption = { ...current, ...rest, updatedAt: tx.now };
      if (saved || clearMedia) {
        replaced = current.mediaPath;
        next.mediaPath = saved ?? null;
        next.mediaName = saved ? file!.name : null;
      }
      if (rest.option === undefined || rest.option === current.option) {
        return { put: [next], reply: next };
      }
      const siblings = siblingsOf(tx.records.values(), current.queueId, current.parentId);
      const put = renumber(placeAt(siblings, next, rest.option), tx.now);
      const moved = put.find((o) => o.id === id) ?? next;
      return { put: [...put.filter((o) => o.id !== id), moved], reply: moved };
    }).catch(async (error: unknown) => {
      if (saved) await deleteMediaFiles(deps, companyId, [saved]);
      throw error;
    });
    if (replaced) await deleteMediaFiles(deps, companyId, [replaced]);
    return c.json(await view(deps, option));
  });

  app.delete("/:id", auth, manage, async (c) => {
    const id = idParam(c, "id", () => optionMissing(c.req.param("id")));
    const deps = c.get("deps");
    const companyId = c.get("principal").companyId;
    const removed = await queueOptions.in(deps.system, companyId).transact((tx) => {
      const target = tx.records.get(id);
      if (!target) throw optionMissing(id);
      const ids = subtreeIds(tx.records.values(), id);
      if (ids.length > 400) {
        throw new AppError("ERR_VALIDATION", {
          status: 400,
          message: `Option ${id} has ${ids.length} descendants; delete its branches first`,
        });
      }
      const gone = new Set(ids);
      const siblings = siblingsOf(tx.records.values(), target.queueId, target.parentId)
        .filter((o) => !gone.has(o.id));
      const files = ids.map((x) => tx.records.get(x)?.mediaPath).filter((p): p is string => !!p);
      return { remove: ids, put: renumber(siblings, tx.now), reply: files };
    });
    await deleteMediaFiles(deps, companyId, removed);
    return c.json({ message: "Queue option deleted" });
  });

  return app;
}
