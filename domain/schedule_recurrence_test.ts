import assert from "node:assert/strict";
import {
  nextAfterSend,
  nextOccurrence,
  parseDays,
  parseSendAt,
  REPEAT_FOREVER,
  weekdayOf,
  zonedInstant,
} from "./schedule_recurrence.ts";
import { afterOutcome, MAX_ATTEMPTS, RETRY_MS, type Schedule, ScheduleInput } from "./schedule.ts";

const SP = "America/Sao_Paulo";
const HOUR = 3600_000;
const DAY = 24 * HOUR;
/** Thursday 26 Nov 2026, 09:00 in São Paulo (UTC−3). */
const THU_9 = Date.parse("2026-11-26T12:00:00Z");

Deno.test("parseDays() reads the client's text or a list, case-insensitive, in week order", () => {
  assert.deepEqual(parseDays("Monday, Thursday"), ["Monday", "Thursday"]);
  assert.deepEqual(parseDays(["friday", "Monday", "monday"]), ["Monday", "Friday"]);
  assert.deepEqual(parseDays(""), []);
  assert.deepEqual(parseDays(null), []);
  assert.equal(parseDays("Mon"), null);
});

Deno.test("parseSendAt() reads a zone-less time as the company's wall clock and ISO as given", () => {
  assert.equal(parseSendAt("2026-11-26T09:00"), THU_9);
  assert.equal(parseSendAt("2026-11-26 09:00:00"), THU_9);
  assert.equal(parseSendAt("2026-11-26T12:00:00.000Z"), THU_9);
  assert.equal(parseSendAt(THU_9), THU_9);
  assert.ok(Number.isNaN(parseSendAt("tomorrow")));
  assert.ok(Number.isNaN(parseSendAt("")));
});

Deno.test("nextOccurrence() keeps the wall-clock time on the next selected weekday", () => {
  assert.equal(weekdayOf(THU_9, SP), "Thursday");
  // Every day: Friday 09:00.
  assert.equal(nextOccurrence(THU_9, [], THU_9, SP), THU_9 + DAY);
  // Monday and Thursday: the coming Monday, then the Thursday after.
  const monday = nextOccurrence(THU_9, ["Monday", "Thursday"], THU_9, SP);
  assert.equal(monday, THU_9 + 4 * DAY);
  assert.equal(nextOccurrence(monday, ["Monday", "Thursday"], monday, SP), THU_9 + 7 * DAY);
  // Only Thursday: a week later, never the same day.
  assert.equal(nextOccurrence(THU_9, ["Thursday"], THU_9, SP), THU_9 + 7 * DAY);
});

Deno.test("nextOccurrence() after an outage skips the missed days instead of sending a burst", () => {
  const backAt = THU_9 + 10 * DAY + 2 * HOUR; // Sunday 6 Dec, 11:00
  assert.equal(nextOccurrence(THU_9, [], backAt, SP), THU_9 + 11 * DAY);
  assert.equal(nextOccurrence(THU_9, ["Thursday"], backAt, SP), THU_9 + 14 * DAY);
});

Deno.test("nextOccurrence() keeps 09:00 local across a DST change (New York, March 2027)", () => {
  const ny = "America/New_York";
  const fri = zonedInstant({ year: 2027, month: 3, day: 12, hour: 9, minute: 0, second: 0 }, ny);
  assert.equal(new Date(fri).toISOString(), "2027-03-12T14:00:00.000Z");
  const next = nextOccurrence(fri, ["Monday"], fri, ny);
  assert.equal(new Date(next).toISOString(), "2027-03-15T13:00:00.000Z");
});

Deno.test("nextAfterSend(): repeatEvery counts repetitions after the first send; 9999999 never ends", () => {
  const base = { sendAt: THU_9, selectDaysRecorrenci: "" };
  assert.equal(nextAfterSend({ ...base, repeatEvery: null, repeatCount: 0 }, THU_9, SP), null);
  assert.equal(nextAfterSend({ ...base, repeatEvery: 2, repeatCount: 0 }, THU_9, SP), THU_9 + DAY);
  assert.equal(nextAfterSend({ ...base, repeatEvery: 2, repeatCount: 1 }, THU_9, SP), THU_9 + DAY);
  assert.equal(nextAfterSend({ ...base, repeatEvery: 2, repeatCount: 2 }, THU_9, SP), null);
  assert.equal(nextAfterSend({ ...base, repeatEvery: REPEAT_FOREVER, repeatCount: 500 }, THU_9, SP), THU_9 + DAY);
});

function schedule(over: Partial<Schedule> = {}): Schedule {
  return {
    id: 1,
    companyId: 1,
    contactId: 1,
    body: "Olá, tudo bem?",
    sendAt: THU_9,
    sentAt: null,
    status: "PENDENTE",
    geral: false,
    queueId: null,
    whatsappId: null,
    atribuirUser: false,
    userId: null,
    repeatEvery: null,
    repeatCount: 0,
    selectDaysRecorrenci: "",
    mediaPath: null,
    mediaName: null,
    createdBy: 1,
    ticketId: null,
    error: null,
    attempts: 0,
    createdAt: 0,
    updatedAt: 0,
    ...over,
  };
}

Deno.test("afterOutcome(): PENDENTE → ENVIADA, or PENDENTE at the next occurrence while repeating", () => {
  const once = afterOutcome(schedule(), { type: "sent", ticketId: 7 }, THU_9 + 5, null);
  assert.equal(once.schedule.status, "ENVIADA");
  assert.equal(once.schedule.sentAt, THU_9 + 5);
  assert.equal(once.schedule.ticketId, 7);
  assert.equal(once.dueAt, null);
  const again = afterOutcome(schedule({ repeatEvery: 1 }), { type: "sent", ticketId: 7 }, THU_9 + 5, THU_9 + DAY);
  assert.equal(again.schedule.status, "PENDENTE");
  assert.equal(again.schedule.sendAt, THU_9 + DAY);
  assert.equal(again.schedule.repeatCount, 1);
  assert.equal(again.dueAt, THU_9 + DAY);
});

Deno.test("afterOutcome(): a connection not ready is retried, then ERRO; a failure is ERRO at once", () => {
  let s = schedule();
  for (let i = 1; i < MAX_ATTEMPTS; i++) {
    const step = afterOutcome(s, { type: "retry", reason: "ERR_WAPP_NOT_INITIALIZED" }, THU_9, null);
    assert.equal(step.schedule.status, "PENDENTE");
    assert.equal(step.dueAt, THU_9 + RETRY_MS);
    s = step.schedule;
  }
  const last = afterOutcome(s, { type: "retry", reason: "ERR_WAPP_NOT_INITIALIZED" }, THU_9, null);
  assert.deepEqual([last.schedule.status, last.schedule.error, last.dueAt], ["ERRO", "ERR_WAPP_NOT_INITIALIZED", null]);
  const failed = afterOutcome(schedule({ repeatEvery: 3 }), { type: "failed", reason: "ERR_NO_CONTACT_FOUND" }, THU_9, null);
  assert.deepEqual([failed.schedule.status, failed.dueAt], ["ERRO", null]);
});

Deno.test("ScheduleInput: the client's texts, openTicket as geral, days normalized", () => {
  const bad = ScheduleInput.safeParse({ body: "oi", sendAt: "" });
  assert.equal(bad.success, false);
  const messages = Object.fromEntries(bad.error!.issues.map((i) => [i.path.join("."), i.message]));
  assert.deepEqual(messages, { body: "Mensagem muito curta", contactId: "Obrigatório", sendAt: "Obrigatório" });
  const ok = ScheduleInput.parse({
    body: "Lembrete da consulta",
    contactId: "3",
    sendAt: "2026-11-26T09:00",
    openTicket: 1,
    repeatEvery: "2",
    selectDaysRecorrenci: "thursday, Monday",
  });
  assert.deepEqual(
    [ok.contactId, ok.sendAt, ok.openTicket, ok.repeatEvery, ok.selectDaysRecorrenci],
    [3, THU_9, true, 2, "Monday, Thursday"],
  );
  assert.equal(ScheduleInput.safeParse({ body: "Lembrete", contactId: 1, sendAt: THU_9, repeatEvery: 31 }).success, false);
  assert.equal(ScheduleInput.parse({ body: "Lembrete", contactId: 1, sendAt: THU_9, repeatEvery: "" }).repeatEvery, null);
});
