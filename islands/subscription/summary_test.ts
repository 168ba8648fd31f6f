import assert from "node:assert/strict";
import { formatDueDate, subscriptionSummary } from "./summary.ts";

const company = {
  id: 2,
  name: "Floricultura",
  email: "maria@flores.local",
  createdAt: "2026-11-25T22:30:00.000Z",
  dueDate: "2026-11-28T22:30:00.000Z",
  plan: { name: "Básico", value: 99.9 },
};

Deno.test("subscriptionSummary() calls a due date within the longest trial of creation a trial", () => {
  assert.deepEqual(subscriptionSummary(company), {
    trial: true,
    dueDate: "28/11/2026",
    billingEmail: "maria@flores.local",
    plan: { name: "Básico", value: "R$\u00a099,90" },
  });
});

Deno.test("subscriptionSummary() calls a month-long due date the next charge, and a missing one never due", () => {
  assert.equal(subscriptionSummary({ ...company, dueDate: "2026-12-25T22:30:00.000Z" }).trial, false);
  const never = subscriptionSummary({ ...company, dueDate: null, plan: null });
  assert.equal(never.trial, false);
  assert.equal(never.dueDate, null);
  assert.equal(never.plan, null);
});

Deno.test("formatDueDate() counts the calendar day in UTC, as the subscription gate does", () => {
  assert.equal(formatDueDate("2026-01-05T01:00:00.000Z"), "05/01/2026");
  assert.equal(formatDueDate("2026-12-31T23:59:00.000Z"), "31/12/2026");
});
