/** Tags (spec 001 §3, §5, §2.16): kanban tags have `kanban: 1`. */
import { z } from "zod";
import { MSG } from "./text.ts";

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
  ),
  color: z.string().trim().default("#A4CCCC"),
  kanban: z.coerce.number().int().min(0).max(1).default(0),
  order: z.coerce.number().int().default(0),
  userId: z.coerce.number().int().positive().nullable().optional(),
});
export type TagInput = z.infer<typeof TagInput>;
