/** Plans and their feature flags (spec 001 §3, 000 §1). */
import { z } from "zod";
import { AppError } from "./errors.ts";
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
/** A monthly price in BRL: bounded so a typo (or 1e308) never becomes an invoice. */
export const PlanPrice = z.coerce.number().min(0).max(1_000_000);
const price = PlanPrice;

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

/**
 * The Sim/Não the plans form shows for a stored flag (true = 'Sim'). Spec 001 §2.8 and §3:
 * every flag shows its effective value (null counts as on), except `useInternal`, whose
 * display is inverted: 'Sim' stands for a stored false (and for null, which is also off), so
 * 'Sim' on that one select means the internal feature is OFF. This is the spec's own quirk,
 * kept on purpose so plans edited here and in the original client agree.
 */
export function flagChoice(flag: PlanFlag, stored: boolean | null | undefined): boolean {
  return flag === "useInternal" ? stored !== true : stored !== false;
}

/** The value stored for the form's Sim/Não of `flag` (the inverse of flagChoice: 'Sim' on useInternal stores false). */
export function flagFromChoice(flag: PlanFlag, sim: boolean): boolean {
  return flag === "useInternal" ? !sim : sim;
}

/** The spec's save failure (001 §8, 'plano' in place of 'empresa'), shown on the name field of a duplicate. */
const PLAN_SAVE_FAILURE =
  "Não foi possível realizar a operação. Verifique se já existe uma plano com o mesmo nome ou se os campos foram preenchidos corretamente";

/**
 * Throws the 409 of a plan name already used by another plan. Names are unique,
 * case-insensitively and ignoring outer spaces: the sign-up and the companies form pick a
 * plan by its name, so two plans of one name could not be told apart.
 */
export function assertPlanNameFree(plans: Iterable<Pick<Plan, "id" | "name">>, name: string, selfId = 0): void {
  const wanted = name.trim().toLowerCase();
  for (const p of plans) {
    if (p.id !== selfId && p.name.trim().toLowerCase() === wanted) {
      throw new AppError("ERR_CONFLICT", {
        status: 409,
        message: `A plan named ${name.trim()} already exists`,
        fields: { name: PLAN_SAVE_FAILURE },
      });
    }
  }
}
