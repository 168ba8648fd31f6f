/**
 * Queue options: the chatbot tree of a queue (spec 001 §2.15, §3, §4, §5). Siblings (same
 * queue and parent) are numbered 1..n by `option`; a move or a delete renumbers them.
 */
import { z } from "zod";
import { Id, MSG, OptionalId } from "./text.ts";

export const QueueOptionType = z.enum(["text", "queue", "attendent", "n8n"]);
export type QueueOptionType = z.infer<typeof QueueOptionType>;

export const QueueOption = z.object({
  id: z.number(),
  companyId: z.number(),
  queueId: z.number(),
  /** null for a root option. */
  parentId: z.number().nullable(),
  title: z.string(),
  /** The text sent when chosen; for type n8n the integration URL. */
  message: z.string(),
  queueType: QueueOptionType,
  /** Position among its siblings, 1..n. */
  option: z.number(),
  /** Target queue of a `queue` option. */
  queueOptionsId: z.number().nullable(),
  /** Target user of an `attendent` option. */
  queueUsersId: z.number().nullable(),
  /** Stored media file (relative to the company's media folder) and its original name. */
  mediaPath: z.string().nullable(),
  mediaName: z.string().nullable(),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type QueueOption = z.infer<typeof QueueOption>;

/** Defaults of a new option (spec 001 §5). */
export const OPTION_DEFAULTS = {
  rootTitle: "Nova opção",
  childTitle: "Nova subopção",
  message: "Mensagem padrão",
  queueType: "text",
} as const;

/** POST /queue-options body. */
export const QueueOptionCreate = z.object({
  queueId: Id,
  parentId: OptionalId.default(null),
  title: z.string().trim().max(200).optional(),
  message: z.string().max(10_000).optional(),
  queueType: QueueOptionType.default("text"),
  option: z.coerce.number().int().positive().optional(),
  queueOptionsId: OptionalId.default(null),
  queueUsersId: OptionalId.default(null),
});
export type QueueOptionCreate = z.infer<typeof QueueOptionCreate>;

/** PUT /queue-options/{id} body (JSON or multipart fields): only what is sent changes. */
export const QueueOptionUpdate = z.object({
  title: z.string().trim().min(1, MSG.required).max(200).optional(),
  message: z.string().max(10_000).optional(),
  queueType: QueueOptionType.optional(),
  option: z.coerce.number().int().positive().optional(),
  queueOptionsId: OptionalId.optional(),
  queueUsersId: OptionalId.optional(),
  clearMedia: z.preprocess((v) => v === true || v === "true" || v === "1", z.boolean())
    .optional(),
});
export type QueueOptionUpdate = z.infer<typeof QueueOptionUpdate>;

/** The message of an n8n option whose message is not an http(s) URL. */
export const INVALID_URL = "Invalid URL";

/**
 * What an option of its type lacks, as field → message, or null when it can be stored: a
 * `queue` option needs its target queue, an `attendent` option its user, and an `n8n`
 * option holds its integration URL in `message` (spec 001 §3).
 */
export function optionProblem(
  o: Pick<QueueOption, "queueType" | "message" | "queueOptionsId" | "queueUsersId">,
): Record<string, string> | null {
  switch (o.queueType) {
    case "queue":
      return o.queueOptionsId === null ? { queueOptionsId: MSG.required } : null;
    case "attendent":
      return o.queueUsersId === null ? { queueUsersId: MSG.required } : null;
    case "n8n":
      return /^https?:\/\/\S+$/.test(o.message.trim()) ? null : { message: INVALID_URL };
    case "text":
      return null;
  }
}

/** GET /queue-options query: `parentId` -1 or "null" for roots, absent for the whole tree. */
export const QueueOptionQuery = z.object({
  queueId: Id,
  parentId: z.preprocess(
    (v) => (v === "null" || v === "-1" || v === "" ? -1 : v),
    z.coerce.number().int().min(-1),
  ).optional(),
});
export type QueueOptionQuery = z.infer<typeof QueueOptionQuery>;

/** The siblings of a position (same queue and parent) in `option` order. */
export function siblingsOf(
  all: Iterable<QueueOption>,
  queueId: number,
  parentId: number | null,
): QueueOption[] {
  const list: QueueOption[] = [];
  for (const o of all) if (o.queueId === queueId && o.parentId === parentId) list.push(o);
  return list.sort((a, b) => a.option - b.option || a.id - b.id);
}

/**
 * Renumbers `ordered` as 1..n; returns only the records whose number changed (with
 * `updatedAt` = now), so a transaction writes no more than it must.
 */
export function renumber(ordered: readonly QueueOption[], now: number): QueueOption[] {
  const changed: QueueOption[] = [];
  ordered.forEach((o, i) => {
    if (o.option !== i + 1) changed.push({ ...o, option: i + 1, updatedAt: now });
  });
  return changed;
}

/** `ordered` with `item` placed at 1-based position `at` (clamped to the ends). */
export function placeAt<T extends { id: number }>(
  ordered: readonly T[],
  item: T,
  at: number,
): T[] {
  const rest = ordered.filter((o) => o.id !== item.id);
  const index = Math.max(0, Math.min(rest.length, at - 1));
  return [...rest.slice(0, index), item, ...rest.slice(index)];
}

/** The ids of `rootId` and all its descendants (any records with `id` and `parentId`). */
export function subtreeIds(
  all: Iterable<{ id: number; parentId: number | null }>,
  rootId: number,
): number[] {
  const children = new Map<number, number[]>();
  for (const o of all) {
    if (o.parentId === null) continue;
    const list = children.get(o.parentId) ?? [];
    list.push(o.id);
    children.set(o.parentId, list);
  }
  const ids: number[] = [];
  const stack = [rootId];
  while (stack.length) {
    const id = stack.pop()!;
    ids.push(id);
    stack.push(...(children.get(id) ?? []));
  }
  return ids;
}
