import assert from "node:assert/strict";
import { ActorSystem } from "../_runtime/system.ts";
import { waitFor, withSystem } from "../_runtime/testing.ts";
import { listRatingAnswers, ratingAnswers, ticketAnswer } from "./answers.ts";
import { type OpenArg, surveyByKey, surveysActor, type SurveysState, surveysOf } from "./surveys.ts";

const COMPANY = 7;
const options = [{ name: "Ruim", value: 1 }, { name: "Bom", value: 5 }];
const arg = (ticketId: number, waitUntil: number | null, contactId = 40): OpenArg => ({
  ticketId,
  contactId,
  whatsappId: 3,
  ratingId: 2,
  userId: 9,
  options,
  waitUntil,
});

function register(system: ActorSystem) {
  system.register(surveysActor, ratingAnswers.actor);
}

const state = (system: ActorSystem) => surveysOf(system, COMPANY).peek<SurveysState>();

Deno.test("surveys: a valid chat reply records one answer and ends the wait", async () => {
  await withSystem(async ({ system }) => {
    register(system);
    const ref = surveysOf(system, COMPANY);
    const survey = await ref.ask("open", arg(1, Date.now() + 3_600_000));
    assert.equal((await state(system)).byConversation.get("40:3"), 1);
    assert.deepEqual(await ref.ask("reply", { ticketId: 1, body: "Bom" }), {
      type: "recorded",
      answer: (await ticketAnswer(system, COMPANY, 1))!,
    });
    const answers = await listRatingAnswers(system, COMPANY);
    assert.equal(answers.length, 1);
    assert.deepEqual(
      { ticketId: answers[0].ticketId, userId: answers[0].userId, ratingId: answers[0].ratingId, rate: answers[0].rate, contactId: answers[0].contactId },
      { ticketId: 1, userId: 9, ratingId: 2, rate: 5, contactId: 40 },
    );
    assert.equal((await state(system)).waits.size, 0);
    assert.deepEqual(await ref.ask("reply", { ticketId: 1, body: "1" }), { type: "none" });
    // The link of an answered survey refuses a second answer; the key still names it.
    assert.equal((await surveyByKey(system, survey.key))?.ticketId, 1);
    await assert.rejects(() => ref.ask("answer", { ticketId: 1, value: 1 }), /already rated/);
    await assert.rejects(() => ref.ask("open", arg(1, null)), /already rated/);
  });
});

Deno.test("surveys: an invalid reply is re-asked twice, then the wait ends without an answer", async () => {
  await withSystem(async ({ system }) => {
    register(system);
    const ref = surveysOf(system, COMPANY);
    await ref.ask("open", arg(1, Date.now() + 3_600_000));
    assert.equal((await ref.ask("reply", { ticketId: 1, body: "hein?" })).type, "invalid");
    assert.equal((await ref.ask("reply", { ticketId: 1, body: "7" })).type, "invalid");
    assert.equal((await ref.ask("reply", { ticketId: 1, body: "nada" })).type, "ended");
    assert.equal((await state(system)).waits.size, 0);
    assert.equal((await listRatingAnswers(system, COMPANY)).length, 0);
    // The link still takes the answer after the chat wait ended; only an offered value.
    await assert.rejects(() => ref.ask("answer", { ticketId: 1, value: 3 }), /not an option/);
    assert.equal((await ref.ask("answer", { ticketId: 1, value: 1 })).rate, 1);
  });
});

Deno.test("surveys: a newer survey of the same conversation replaces the older wait; the key is kept per ticket", async () => {
  await withSystem(async ({ system }) => {
    register(system);
    const ref = surveysOf(system, COMPANY);
    const first = await ref.ask("open", arg(1, Date.now() + 3_600_000));
    const again = await ref.ask("open", arg(1, Date.now() + 3_600_000));
    assert.equal(again.key, first.key);
    await ref.ask("open", arg(2, Date.now() + 3_600_000));
    const s = await state(system);
    assert.deepEqual([...s.waits.keys()], [2]);
    assert.equal(s.byConversation.get("40:3"), 2);
  });
});

Deno.test("surveys: the wait's timer ends it, across a restart of the system", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/kv`;
  try {
    let kv = await Deno.openKv(path);
    let system = new ActorSystem(kv);
    register(system);
    await surveysOf(system, COMPANY).ask("open", arg(1, Date.now() + 1_500));
    await system.close();
    kv.close();
    await system.listening.catch(() => {});

    kv = await Deno.openKv(path);
    system = new ActorSystem(kv);
    register(system);
    try {
      assert.equal((await state(system)).waits.has(1), true, "the wait survives the restart");
      await waitFor(async () => !(await state(system)).waits.has(1), "the timer to end the wait", 20_000);
      assert.equal((await kv.get(["rating_wait", COMPANY, 1])).value, null);
      assert.equal((await surveysOf(system, COMPANY).ask("reply", { ticketId: 1, body: "5" })).type, "none");
    } finally {
      await system.close();
      kv.close();
      await system.listening.catch(() => {});
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
