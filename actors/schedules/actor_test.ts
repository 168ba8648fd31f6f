import assert from "node:assert/strict";
import { settle, waitFor, withSystem } from "../_runtime/testing.ts";
import { timerKey } from "../_runtime/timers.ts";
import type { Schedule } from "../../domain/schedule.ts";
import { bindSchedulePorts, getSchedule, type ScheduleDraft, schedulesActor, schedulesOf } from "./mod.ts";

const DAY = 24 * 3600 * 1000;

function draft(sendAt: number, over: Partial<ScheduleDraft> = {}): ScheduleDraft {
  return {
    contactId: 1,
    body: "Lembrete da consulta",
    sendAt,
    geral: false,
    queueId: null,
    whatsappId: null,
    atribuirUser: false,
    userId: null,
    repeatEvery: null,
    selectDaysRecorrenci: "",
    mediaPath: null,
    mediaName: null,
    createdBy: 1,
    ...over,
  };
}

/** A clock that tests move forward, and ports that record every send. */
function fixture() {
  const clock = { offset: 0, now: () => Date.now() + clock.offset };
  const sent: Array<{ id: number; sendAt: number; at: number }> = [];
  const ports = {
    send(s: Schedule) {
      sent.push({ id: s.id, sendAt: s.sendAt, at: clock.now() });
      return Promise.resolve({ type: "sent" as const, ticketId: 9 });
    },
  };
  return { clock, sent, ports };
}

Deno.test("schedules actor: a daily recurrence with repeatEvery 1 sends twice, then is ENVIADA", async () => {
  const { clock, sent, ports } = fixture();
  await withSystem(async ({ system }) => {
    bindSchedulePorts(system, ports);
    const ref = schedulesOf(system, 1);
    const first = await ref.ask("create", draft(clock.now() + 300, { repeatEvery: 1 }));
    // The fake day passes: the first occurrence fires with the clock one day (less a second)
    // ahead, so the next one, a day after the first, is due a real second later.
    clock.offset = DAY - 1000;
    await waitFor(() => sent.length === 2, "two sends", 10_000);
    assert.deepEqual(sent.map((s) => s.sendAt), [first.sendAt, first.sendAt + DAY]);
    await waitFor(async () => (await getSchedule(system, 1, first.id))?.status === "ENVIADA", "ENVIADA");
    const done = (await getSchedule(system, 1, first.id))!;
    assert.deepEqual([done.repeatCount, done.ticketId, done.sendAt], [1, 9, first.sendAt + DAY]);
    await settle(20);
    assert.equal(sent.length, 2);
  }, { now: clock.now });
});

Deno.test("schedules actor: an edit re-arms the timer, a delete cancels it, both survive passivation", async () => {
  const { clock, sent, ports } = fixture();
  await withSystem(async ({ system, kv }) => {
    bindSchedulePorts(system, ports);
    const ref = schedulesOf(system, 1);
    const moved = await ref.ask("create", draft(clock.now() + 200));
    const dropped = await ref.ask("create", draft(clock.now() + 200));
    const { after } = await ref.ask("update", { id: moved.id, change: { sendAt: clock.now() + 700 } });
    await ref.ask("remove", { id: dropped.id });
    assert.equal((await kv.get(timerKey(schedulesActor.kind, "1", `s${dropped.id}`))).value, null);
    system.passivateAll();
    await waitFor(() => sent.length === 1, "the moved schedule", 10_000);
    assert.deepEqual(sent.map((s) => [s.id, s.sendAt]), [[moved.id, after.sendAt]]);
    assert.ok(sent[0].at >= after.sendAt - 50, "sent before its new time");
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(sent.length, 1);
    await assert.rejects(ref.ask("update", { id: moved.id, change: { body: "Outro texto" } }), /only a PENDENTE/);
  }, { now: clock.now });
});

Deno.test("schedules actor: a connection not ready is retried by a timer, not dropped", async () => {
  const clock = { offset: 0, now: () => Date.now() + clock.offset };
  let calls = 0;
  await withSystem(async ({ system }) => {
    bindSchedulePorts(system, {
      retryMs: 200,
      send: () => {
        calls++;
        return Promise.resolve(calls === 1 ? { type: "retry" as const, reason: "ERR_WAPP_NOT_INITIALIZED" } : { type: "sent" as const, ticketId: 3 });
      },
    });
    const s = await schedulesOf(system, 1).ask("create", draft(clock.now() + 100));
    await waitFor(async () => (await getSchedule(system, 1, s.id))?.status === "ENVIADA", "sent after the retry", 10_000);
    assert.equal(calls, 2);
  }, { now: clock.now });
});
