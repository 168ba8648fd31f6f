/** Opportunities (spec 002 §2.11, §3, §7): named sales opportunities a ticket may point to. */
import { z } from "zod";
import { sized } from "./text.ts";

export const Oportunidade = z.object({
  id: z.number(),
  companyId: z.number(),
  name: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type Oportunidade = z.infer<typeof Oportunidade>;

/** POST /oportunidade and PUT /oportunidade/{id} body. */
export const OportunidadeInput = z.object({ name: sized(2, 50) });
export type OportunidadeInput = z.infer<typeof OportunidadeInput>;
