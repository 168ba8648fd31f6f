import assert from "node:assert/strict";
import { assertPlanNameFree, flagChoice, flagFromChoice, type Plan, PLAN_FLAGS, planAllows, PlanUpdate } from "./plan.ts";

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

Deno.test("flagChoice()/flagFromChoice(): the form shows effective flags, useInternal inverted ('Sim' stores false)", () => {
  for (const flag of PLAN_FLAGS.filter((f) => f !== "useInternal")) {
    assert.equal(flagChoice(flag, true), true, flag);
    assert.equal(flagChoice(flag, null), true, `${flag}: null counts as on`);
    assert.equal(flagChoice(flag, false), false, flag);
    assert.equal(flagFromChoice(flag, true), true, flag);
    assert.equal(flagFromChoice(flag, false), false, flag);
  }
  assert.equal(flagFromChoice("useInternal", true), false, "'Sim' stores false");
  assert.equal(flagFromChoice("useInternal", false), true, "'Não' stores true");
  assert.equal(flagChoice("useInternal", false), true, "stored false shows 'Sim'");
  assert.equal(flagChoice("useInternal", null), true, "stored null (off) shows 'Sim' too");
  assert.equal(flagChoice("useInternal", true), false, "stored true shows 'Não'");
  // The round trip keeps what planAllows() sees for every stored value.
  for (const flag of PLAN_FLAGS) {
    for (const stored of [true, false, null]) {
      const back = flagFromChoice(flag, flagChoice(flag, stored));
      assert.equal(planAllows({ ...flags(null), [flag]: back }, flag), planAllows({ ...flags(null), [flag]: stored }, flag), `${flag} ${stored}`);
    }
  }
});

Deno.test("assertPlanNameFree() refuses another plan's name, ignoring case and outer spaces, but not the plan's own", () => {
  const plans = [{ id: 1, name: "Completo" }, { id: 2, name: "Básico" }];
  assert.throws(() => assertPlanNameFree(plans, "  completo "), /A plan named completo already exists/);
  assert.doesNotThrow(() => assertPlanNameFree(plans, "COMPLETO", 1));
  assert.doesNotThrow(() => assertPlanNameFree(plans, "Pro"));
});
