/**
 * Plan gates (spec 000 §1, 002 §2.1, §6): a feature a plan flag turns off answers 403
 * ERR_PLAN_FEATURE with the spec's upgrade text, on the server and not only in the menu.
 * Mount after requireAuth (it reads the principal's company).
 */
import type { MiddlewareHandler } from "hono";
import { companyPlan, companySettings } from "../../actors/platform/lookup.ts";
import { AppError } from "../../domain/errors.ts";
import { UPGRADE_TEXT } from "../../domain/external_message.ts";
import { planAllows, type PlanFlag } from "../../domain/plan.ts";
import { campaignsOn } from "../../domain/settings.ts";
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

/**
 * 403 unless the caller's company has campaigns on (its `campaignsEnabled` setting, the
 * platform owner's switch; the browser's `cshow` flag is made from it: islands/lib/campaign_flag.ts).
 * The campaign and contact-list routes mount it after requirePlan("useCampaigns").
 */
export function requireCampaignsEnabled(): MiddlewareHandler<AppEnv> {
  return async function requireCampaignsEnabledMiddleware(c, next) {
    const { companyId } = c.get("principal");
    if (!campaignsOn((await companySettings(c.get("deps").system, companyId)).campaignsEnabled)) {
      throw new AppError("ERR_PLAN_FEATURE", { status: 403, message: UPGRADE_TEXT });
    }
    await next();
  };
}
