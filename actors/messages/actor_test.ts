import assert from "node:assert/strict";
import { settle, waitFor, withSystem } from "../_runtime/testing.ts";
import { actorId, type MessageDraft, messagesActor, type TicketMessagesState } from "./actor.ts";
import { messageKey } from "./keys.ts";
import { storedMessage } from "./stored.ts";

function draft(providerId: string, body: string): MessageDraft {
  return {
    contactId: 1, body, fromMe: false, mediaType: "chat", mediaUrl: null, mediaName: null,
    mimetype: null, quotedMsgId: null, isDeleted: false, isEdited: false, ack: 0, read: false,
    providerId, participant: null, userId: null, failed: null, sendAttempts: 0,
  };
}

Deno.test("messages actor keeps a written message in memory only while its write is in flight", async () => {
  await withSystem(async ({ system, kv, probe }) => {
    const ref = system.ref(messagesActor, actorId(1, 7));
    const cached = async () => (await ref.peek<TicketMessagesState>()).inFlight;
    probe.hold();
    const first = ref.ask("append", draft("P1", "olá"));
    // The actor's activation reads KV first: a busy machine takes more than a few turns.
    await waitFor(async () => (await cached()).length > 0, "the append to run");
    const [id] = (await cached()).map((m) => m.id);
    assert.ok(id, "the message in flight is cached");
    // Two changes in quick succession, both before the append is durable: the second applies
    // on top of the first (from the cache), not on the stale copy KV does not even hold yet.
    const acked = ref.ask("change", { id, change: { type: "ack", ack: 2 } });
    const edited = ref.ask("change", { id, change: { type: "edit", body: "olá!" } });
    await settle();
    assert.equal((await kv.get(messageKey(1, 7, id))).value, null);
    probe.release();
    const written = (await first).message!;
    await acked;
    const last = (await edited)!;
    assert.equal(last.ack, 2);
    assert.equal(last.body, "olá!");
    assert.equal((await cached()).length, 0, "durable writes leave the cache");
    const stored = storedMessage((await kv.get(messageKey(1, 7, written.id))).value);
    assert.equal(stored.ack, 2);
    assert.equal(stored.body, "olá!");
    // Read back from KV now: a further change still builds on the latest version.
    const read = (await ref.ask("change", { id, change: { type: "ack", ack: 3 } }))!;
    assert.equal(read.body, "olá!");
    assert.equal(read.ack, 3);
    // The first page, loaded while a write is in flight, shows it.
    probe.hold();
    const second = ref.ask("append", draft("P2", "tudo bem?"));
    await settle();
    const page = ref.ask("newest", undefined);
    probe.release();
    await second;
    assert.deepEqual((await page).messages.map((m) => m.body), ["olá!", "tudo bem?"]);
    assert.equal((await cached()).length, 0);
  });
});

Deno.test("messages actor stores a provider id once, whether its first copy is in flight or durable", async () => {
  await withSystem(async ({ system, kv, probe }) => {
    const ref = system.ref(messagesActor, actorId(1, 8));
    const other = system.ref(messagesActor, actorId(1, 9));
    const stored = async () => {
      const ids: string[] = [];
      for (const t of [8, 9]) {
        for await (const e of kv.list({ prefix: ["message", 1, t] })) ids.push(storedMessage(e.value).providerId!);
      }
      return ids;
    };
    // In flight: the copy is found among this ticket's unfinished writes.
    probe.hold();
    const first = ref.ask("append", draft("DUP1", "oi"));
    const copy = ref.ask("append", draft("DUP1", "oi"));
    await settle();
    probe.release();
    const { message } = await first;
    assert.equal((await copy).duplicateOf, message!.id);
    assert.equal((await ref.peek<TicketMessagesState>()).inFlight.length, 0);
    // Durable and gone from memory: the provider index names the message, and its committed
    // copy confirms it.
    assert.equal((await ref.ask("append", draft("DUP1", "oi"))).duplicateOf, message!.id);
    // Company-wide: another ticket's actor finds it too, and a send result cannot claim it.
    assert.equal((await other.ask("append", draft("DUP1", "oi"))).duplicateOf, message!.id);
    const own = (await other.ask("append", draft("OWN", "olá"))).message!;
    await assert.rejects(
      other.ask("change", { id: own.id, change: { type: "sent", providerId: "DUP1" } }),
      /already belongs to message/,
    );
    assert.deepEqual((await stored()).sort(), ["DUP1", "OWN"]);
  });
});
