/** Plans and their feature flags (spec 001 §3, 000 §1). */
import { z } from "zod";
import { sized } from "./text.ts";

export const PLAN_FLAGS = [
  "useWhatsapp",
  "useFacebook",
  "useInstagram",
  "useCampaigns",
  "useSchedules",
  "useInternalChat",
  "useExternalApi",
  "useKanban",
  "useInternal",
  "useAI",
] as const;
export type PlanFlag = typeof PLAN_FLAGS[number];

export const Plan = z.object({
  id: z.number(),
  name: z.string(),
  users: z.number(),
  connections: z.number(),
  queues: z.number(),
  value: z.number(),
  useWhatsapp: z.boolean().nullable(),
  useFacebook: z.boolean().nullable(),
  useInstagram: z.boolean().nullable(),
  useCampaigns: z.boolean().nullable(),
  useSchedules: z.boolean().nullable(),
  useInternalChat: z.boolean().nullable(),
  useExternalApi: z.boolean().nullable(),
  useKanban: z.boolean().nullable(),
  useInternal: z.boolean().nullable(),
  useAI: z.boolean().nullable(),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type Plan = z.infer<typeof Plan>;

const flag = z.boolean().nullable().optional();
const FLAG_FIELDS = {
  useWhatsapp: flag,
  useFacebook: flag,
  useInstagram: flag,
  useCampaigns: flag,
  useSchedules: flag,
  useInternalChat: flag,
  useExternalApi: flag,
  useKanban: flag,
  useInternal: flag,
  useAI: flag,
};
const count = z.coerce.number().int().min(0);
const price = z.coerce.number().min(0);

/** POST /plans body. */
export const PlanInput = z.object({
  name: sized(2, 50),
  users: count.default(0),
  connections: count.default(0),
  queues: count.default(0),
  value: price.default(0),
  ...FLAG_FIELDS,
});
export type PlanInput = z.infer<typeof PlanInput>;

/** PUT /plans/{id} body: only the fields sent change (no defaults, unlike PlanInput). */
export const PlanUpdate = z.object({
  name: sized(2, 50).optional(),
  users: count.optional(),
  connections: count.optional(),
  queues: count.optional(),
  value: price.optional(),
  ...FLAG_FIELDS,
});
export type PlanUpdate = z.infer<typeof PlanUpdate>;

/**
 * Whether a plan grants a feature. Spec 001 §3: a flag is on unless explicitly false, except
 * `useInternal`, which is on only when explicitly true. A missing plan grants nothing.
 */
export function planAllows(plan: Pick<Plan, PlanFlag> | undefined, flag: PlanFlag): boolean {
  if (!plan) return false;
  const value = plan[flag];
  return flag === "useInternal" ? value === true : value !== false;
}
