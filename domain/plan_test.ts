import assert from "node:assert/strict";
import { type Plan, PLAN_FLAGS, planAllows, PlanUpdate } from "./plan.ts";

const flags = (value: boolean | null) =>
  Object.fromEntries(PLAN_FLAGS.map((f) => [f, value])) as Pick<Plan, typeof PLAN_FLAGS[number]>;

Deno.test("planAllows() treats a flag as on unless false, useInternal only when true", () => {
  for (const flag of PLAN_FLAGS) {
    assert.equal(planAllows(flags(true), flag), true, flag);
    assert.equal(planAllows(flags(false), flag), false, flag);
    assert.equal(planAllows(flags(null), flag), flag !== "useInternal", flag);
  }
  assert.equal(planAllows(undefined, "useWhatsapp"), false);
});

Deno.test("PlanUpdate keeps absent fields absent (no defaults)", () => {
  assert.deepEqual(PlanUpdate.parse({ name: "Pro" }), { name: "Pro" });
  assert.equal(PlanUpdate.safeParse({ users: -1 }).success, false);
});
