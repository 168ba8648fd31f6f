/** Tags (spec 001 §3, §5, §2.16): kanban tags have `kanban: 1`. */
import { z } from "zod";
import { MAX, MSG } from "./text.ts";

export const Tag = z.object({
  id: z.number(),
  companyId: z.number(),
  name: z.string(),
  color: z.string(),
  kanban: z.number(),
  order: z.number(),
  userId: z.number().nullable(),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type Tag = z.infer<typeof Tag>;

/** POST /tags and PUT /tags/{id} body. */
export const TagInput = z.object({
  name: z.string({ error: MSG.obrigatorio }).trim().min(1, MSG.obrigatorio).min(
    3,
    "Mensagem muito curta",
  ).max(MAX.name, MSG.tooLong),
  color: z.string().trim().max(MAX.shortText, MSG.tooLong).default("#A4CCCC"),
  kanban: z.coerce.number().int().min(0).max(1).default(0),
  order: z.coerce.number().int().default(0),
  userId: z.coerce.number().int().positive().nullable().optional(),
});
export type TagInput = z.infer<typeof TagInput>;

/** POST /tags/sync body: the ticket and its complete new tag list (tags or their ids). */
export const TagSync = z.object({
  ticketId: z.coerce.number().int().positive(),
  tags: z.array(
    z.union([
      z.coerce.number().int().positive(),
      z.object({ id: z.coerce.number().int().positive() }),
    ]),
  ).max(MAX.list, MSG.tooLong).default([]),
});
export type TagSync = z.infer<typeof TagSync>;

/** The tag ids of a TagSync list, deduplicated, in the given order. */
export function syncIds(tags: TagSync["tags"]): number[] {
  return [...new Set(tags.map((t) => (typeof t === "number" ? t : t.id)))];
}

/** Tags newest first (the tags screen: id descending). */
export function newestFirst(list: readonly Tag[]): Tag[] {
  return [...list].sort((a, b) => b.id - a.id);
}

/** Kanban lanes: kanban tags by `order`, then id. */
export function kanbanLanes(list: readonly Tag[]): Tag[] {
  return list.filter((t) => t.kanban === 1).sort((a, b) => a.order - b.order || a.id - b.id);
}

/** GET /tags/list query: `kanban=1` lists only the kanban's columns. */
export const TagListQuery = z.object({ kanban: z.coerce.number().int().min(0).max(1).optional() });
