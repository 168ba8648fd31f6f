/**
 * Plan gates (spec 000 §1, 002 §2.1, §6): a feature a plan flag turns off answers 403
 * ERR_PLAN_FEATURE with the spec's upgrade text, on the server and not only in the menu.
 * Mount after requireAuth (it reads the principal's company).
 */
import type { MiddlewareHandler } from "hono";
import { companyPlan } from "../../actors/platform/lookup.ts";
import { AppError } from "../../domain/errors.ts";
import { UPGRADE_TEXT } from "../../domain/external_message.ts";
import { planAllows, type PlanFlag } from "../../domain/plan.ts";
import type { AppEnv } from "../deps.ts";

/** 403 unless the caller's company plan has `flag`. */
export function requirePlan(flag: PlanFlag): MiddlewareHandler<AppEnv> {
  return async function requirePlanMiddleware(c, next) {
    const { companyId } = c.get("principal");
    if (!planAllows(await companyPlan(c.get("deps").system, companyId), flag)) {
      throw new AppError("ERR_PLAN_FEATURE", { status: 403, message: UPGRADE_TEXT });
    }
    await next();
  };
}
