/**
 * Plans (spec 001 §2.8, §3, §7): `/plans/list` and `/plans/register` are public (the sign-up
 * page lists them), reads need a login, writes are for super users. A plan that a company
 * uses cannot be deleted. Plan names are unique (case-insensitively): a second plan of the
 * same name is a 409 ERR_CONFLICT whose `fields.name` is the spec's save failure (001 §8).
 */
import { Hono } from "hono";
import { companies, PLATFORM, plans } from "../../actors/platform/collections.ts";
import { createPlan } from "../../actors/platform/commands.ts";
import { AppError, notFound } from "../../domain/errors.ts";
import { matchesSearch, paginate, SearchPage } from "../../domain/paging.ts";
import { definedOnly } from "../../domain/patch.ts";
import { assertPlanNameFree, PLAN_FLAGS, type Plan, PlanInput, PlanUpdate } from "../../domain/plan.ts";
import type { AppEnv } from "../deps.ts";
import { requireAuth, requirePermission } from "../auth/middleware.ts";
import { idParam, parseBody, parseQuery } from "../http/validate.ts";
import { recordAudit } from "../audit/record.ts";
import { changedFields } from "../../domain/audit.ts";

const noPlan = (id: number | string) => notFound("ERR_NO_PLAN_FOUND", `Plan ${id} not found`);

/** The plan routes, mounted at `/plans`. */
export function planRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const superOnly = [requireAuth(), requirePermission("super:plans")] as const;
  // Plans stay readable with a billing-only token: choosing a plan is how one renews.
  const billing = requireAuth({ billing: true });

  app.get("/list", async (c) => c.json(await plans.in(c.get("deps").system, PLATFORM).list()));
  app.get("/register", async (c) => c.json(await plans.in(c.get("deps").system, PLATFORM).list()));
  app.get("/all", billing, async (c) => {
    return c.json(await plans.in(c.get("deps").system, PLATFORM).list());
  });

  app.get("/", ...superOnly, async (c) => {
    const query = parseQuery(c, SearchPage);
    const all = await plans.in(c.get("deps").system, PLATFORM).list();
    const page = paginate(all.filter((p) => matchesSearch(query.searchParam, p.name)), query.pageNumber);
    return c.json({ plans: page.rows, count: page.count, hasMore: page.hasMore });
  });

  app.get("/:id", billing, async (c) => {
    const id = idParam(c, "id", () => noPlan(c.req.param("id")));
    const plan = await plans.in(c.get("deps").system, PLATFORM).get(id);
    if (!plan) throw noPlan(id);
    return c.json(plan);
  });

  app.post("/", ...superOnly, async (c) => {
    const input = await parseBody(c, PlanInput);
    const flags = Object.fromEntries(PLAN_FLAGS.map((f) => [f, input[f] ?? null]));
    const plan = await createPlan(c.get("deps").system, { ...input, ...flags } as Omit<
      Plan,
      "id" | "createdAt" | "updatedAt"
    >);
    await recordAudit(c.get("deps"), c.get("principal"), "plan.create", { kind: "plan", id: plan.id, name: plan.name });
    return c.json(plan, 201);
  });

  app.put("/:id", ...superOnly, async (c) => {
    const id = idParam(c, "id", () => noPlan(c.req.param("id")));
    const input = await parseBody(c, PlanUpdate);
    const before = await plans.in(c.get("deps").system, PLATFORM).get(id);
    const plan = await plans.in(c.get("deps").system, PLATFORM).update(
      id,
      (old, now) => ({ ...old, ...definedOnly(input), name: (input.name ?? old.name).trim(), updatedAt: now }),
      () => noPlan(id),
      (records, next) => assertPlanNameFree(records.values(), next.name, id),
    );
    await recordAudit(c.get("deps"), c.get("principal"), "plan.update", { kind: "plan", id, name: plan.name }, {
      fields: changedFields(input, before),
    });
    return c.json(plan);
  });

  app.delete("/:id", ...superOnly, async (c) => {
    const { system } = c.get("deps");
    const id = idParam(c, "id", () => noPlan(c.req.param("id")));
    // Companies and plans are two actors, so a company could take the plan between this
    // check and the delete; a company left with a deleted plan reads as "no plan" (no flags).
    const users = (await companies.in(system, PLATFORM).list()).filter((co) => co.planId === id);
    if (users.length > 0) {
      throw new AppError("ERR_CONFLICT", {
        status: 409,
        message: `Plan ${id} is used by ${users.length} companies (${users[0].name}…)`,
      });
    }
    await plans.in(system, PLATFORM).remove(id, () => noPlan(id));
    await recordAudit(c.get("deps"), c.get("principal"), "plan.delete", { kind: "plan", id });
    return c.json({ message: "Plan deleted" });
  });

  return app;
}
