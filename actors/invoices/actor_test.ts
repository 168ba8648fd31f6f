import assert from "node:assert/strict";
import { settle, waitFor, withSystem } from "../_runtime/testing.ts";
import { timerKey } from "../_runtime/timers.ts";
import { companies, PLATFORM, plans } from "../platform/collections.ts";
import { createCompany, createPlan } from "../platform/commands.ts";
import type { ActorSystem } from "../_runtime/system.ts";
import { billingRegistry, invoicesActor, invoicesOf, listInvoices, syncInvoices } from "./mod.ts";

const DAY = 86_400_000;

/** A clock that tests set. */
function clockAt(startMs: number) {
  const clock = { offset: startMs - Date.now(), now: () => Date.now() + clock.offset };
  return clock;
}

function register(system: ActorSystem) {
  system.register(companies.actor, plans.actor, invoicesActor, billingRegistry);
}

async function companyDue(system: ActorSystem, dueDate: number) {
  const plan = await createPlan(system, {
    name: "Mensal",
    users: 1,
    connections: 1,
    queues: 1,
    value: 49.9,
    useWhatsapp: true,
    useFacebook: null,
    useInstagram: null,
    useCampaigns: null,
    useSchedules: null,
    useInternalChat: null,
    useExternalApi: null,
    useKanban: null,
    useInternal: null,
    useAI: null,
  });
  return await createCompany(system, { name: `Cliente ${crypto.randomUUID().slice(0, 6)}`, planId: plan.id, dueDate });
}

Deno.test("invoices actor: the issue timer fires 10 days before the due date, once, across a restart", async () => {
  const dir = await Deno.makeTempDir({ prefix: "balcao-invoice-timer-" });
  const path = `${dir}/kv`;
  // The issue time (a midnight, 10 days before the due day) comes 1.5 s after the start.
  const midnight = Math.ceil(Date.now() / DAY) * DAY;
  const clock = clockAt(midnight - 1500);
  const due = midnight + 10 * DAY + 12 * 3600_000;
  let companyId = 0;
  try {
    await withSystem(async ({ system, kv }) => {
      register(system);
      companyId = (await companyDue(system, due)).id;
      assert.equal(await syncInvoices(system, companyId), null, "not yet");
      assert.equal((await kv.get<{ dueAt: number }>(timerKey("invoices", String(companyId), "issue"))).value?.dueAt, midnight);
      assert.equal((await listInvoices(system, companyId)).length, 0);
    }, { now: clock.now, path });
    // Restarted before the timer was due: the new process's alarm rings it, and its
    // start-up sync (as server/boot.ts does) races it through the same mailbox.
    await withSystem(async ({ system }) => {
      register(system);
      await syncInvoices(system, companyId);
      await waitFor(async () => (await listInvoices(system, companyId)).length > 0, "the invoice", 10_000);
      await syncInvoices(system, companyId);
      await invoicesOf(system, companyId).ask("issue", undefined);
      await settle(20);
      system.passivateAll();
      const issued = await listInvoices(system, companyId);
      assert.equal(issued.length, 1);
      assert.equal(issued[0].period, new Date(due).toISOString().slice(0, 7));
      assert.equal(issued[0].dueDate, midnight + 10 * DAY);
      assert.equal(issued[0].value, 49.9);
      assert.ok(clock.now() >= midnight - 1000, "not issued early");
    }, { now: clock.now, path });
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
});

Deno.test("invoices actor: renewals keep a company created on the 31st on the 31st (31 Jan → 29 Feb 2028 → 31 Mar)", async () => {
  const clock = clockAt(Date.parse("2028-01-25T12:00:00Z"));
  await withSystem(async ({ system }) => {
    register(system);
    const company = await companyDue(system, Date.parse("2028-01-31T00:00:00Z"));
    const pay = async (eventId: string) => {
      const [open] = (await listInvoices(system, company.id)).filter((i) => i.status === "open");
      assert.ok(open, `an open invoice for ${eventId}`);
      const outcome = await invoicesOf(system, company.id).ask("settle", { invoiceId: open.id, provider: "simulator", eventId, value: open.value });
      assert.equal(outcome.type, "paid");
      if (outcome.type !== "paid") return;
      // What server/billing/invoices.ts does with the payment: the company's due date.
      await companies.in(system, PLATFORM).update(company.id, (old) => ({ ...old, dueDate: outcome.payment.dueDateAfter }), () => new Error("gone"));
      await syncInvoices(system, company.id);
      return new Date(outcome.payment.dueDateAfter).toISOString().slice(0, 10);
    };
    assert.equal((await syncInvoices(system, company.id))?.period, "2028-01");
    assert.equal(await pay("e1"), "2028-02-29");
    clock.offset = Date.parse("2028-02-20T12:00:00Z") - Date.now();
    assert.equal((await syncInvoices(system, company.id))?.period, "2028-02", "issued within 10 days of 29 Feb");
    system.passivateAll(); // The billing day is read back from KV.
    assert.equal(await pay("e2"), "2028-03-31");
    assert.deepEqual((await listInvoices(system, company.id)).map((i) => i.status), ["paid", "paid"]);
  }, { now: clock.now });
});
