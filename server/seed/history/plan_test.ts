import assert from "node:assert/strict";
import { RATING_WAIT_MS } from "../../../domain/rating.ts";
import { customers, TOPICS } from "./cast.ts";
import { planHistory } from "./plan.ts";

const END = Date.UTC(2026, 10, 27, 17, 42); // a Friday, 14:42 in São Paulo
const DAY = 86_400_000;

Deno.test("planHistory() is the same script for the same end, and another for another end", () => {
  assert.deepEqual(planHistory(END), planHistory(END));
  assert.notDeepEqual(planHistory(END).conversations, planHistory(END + DAY).conversations);
});

Deno.test("planHistory() spans thirty days, every step inside them and in order", () => {
  const plan = planHistory(END);
  assert.ok(plan.start <= END - 30 * DAY && plan.start > END - 31 * DAY);
  assert.ok(plan.conversations.length >= 80, `${plan.conversations.length} conversations`);
  const days = new Set<number>();
  for (const c of plan.conversations) {
    for (const [i, step] of c.steps.entries()) {
      assert.ok(step.at > plan.start && step.at < END, `step ${step.kind} at ${new Date(step.at).toISOString()}`);
      if (i > 0) assert.ok(step.at >= c.steps[i - 1].at);
    }
    days.add(Math.floor(c.steps[0].at / DAY));
  }
  assert.ok(days.size >= 25, `conversations on ${days.size} days`);
});

Deno.test("planHistory() leaves every state, both queues and all three staff", () => {
  const plan = planHistory(END);
  const outcomes = new Map<string, number>();
  for (const c of plan.conversations) outcomes.set(c.outcome, (outcomes.get(c.outcome) ?? 0) + 1);
  assert.deepEqual([...outcomes.keys()].sort(), ["bot", "closed", "open", "pending"]);
  assert.equal(outcomes.get("bot"), 2);
  const steps = plan.conversations.flatMap((c) => c.steps);
  const queues = new Set(steps.flatMap((s) => (s.kind === "choose" ? [s.queue] : [])));
  assert.deepEqual([...queues].sort(), ["sales", "support"]);
  const takers = new Set(steps.flatMap((s) => (s.kind === "accept" ? [s.by] : [])));
  assert.deepEqual([...takers].sort(), ["admin", "agent", "supervisor"]);
  assert.ok(steps.some((s) => s.kind === "transfer"), "a transfer");
  assert.ok(steps.some((s) => s.kind === "rate"), "a survey answer");
  assert.ok(steps.some((s) => s.kind === "lead"), "a kanban lead");
  // The open ones end with the customer's words (the 24-hour silence rule never closes them).
  for (const c of plan.conversations.filter((c) => c.outcome === "open")) {
    assert.equal(c.steps.at(-1)!.kind === "lead" ? c.steps.at(-2)!.kind : c.steps.at(-1)!.kind, "customer");
  }
});

Deno.test("planHistory() sends a customer back only after the last survey's wait, and the agent only to Suporte", () => {
  const plan = planHistory(END);
  const last = new Map<number, { end: number; outcome: string }>();
  for (const c of [...plan.conversations].sort((a, b) => a.steps[0].at - b.steps[0].at)) {
    const before = last.get(c.customer);
    if (before) {
      assert.equal(before.outcome, "closed", "a customer with an open conversation writes no new one");
      assert.ok(c.steps[0].at > before.end + RATING_WAIT_MS);
    }
    last.set(c.customer, { end: c.steps.at(-1)!.at, outcome: c.outcome });
    let queue = TOPICS[c.topic].queue;
    for (const step of c.steps) {
      if (step.kind === "transfer") queue = step.queue;
      if (step.kind === "accept" && step.by === "agent") assert.equal(queue, "support");
    }
    // Buyers (the ones with a lead value) talk to Vendas, the others to Suporte.
    assert.equal(customers()[c.customer].leadValue !== null, TOPICS[c.topic].queue === "sales");
  }
});
