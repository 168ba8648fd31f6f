/**
 * The message index kept in KV (issue #23 §1, search_store.ts): a start loads it and replays
 * the search log written since, instead of rebuilding; a save that stops half-way, a message
 * whose live event never reached the index, and a store written around the log lose nothing.
 * A new `MessageSearch` over the same store stands for the next process.
 */
import assert from "node:assert/strict";
import type { ActorSystem } from "../_runtime/system.ts";
import { settle, waitFor, withSystem } from "../_runtime/testing.ts";
import { messageId } from "../../domain/message.ts";
import { messageKey, messageLogKey, searchLogKey } from "./keys.ts";
import { MessageSearch } from "./search_index.ts";

const COMPANY = 9;
const HEAD: Deno.KvKey = ["search_index", COMPANY, "head"];

/** `tickets` tickets of `perTicket` messages written straight into KV (no log), like a seeder. */
async function seedRaw(kv: Deno.Kv, tickets: number, perTicket: number): Promise<void> {
  let op = kv.atomic();
  let pending = 0;
  for (let ticketId = 1; ticketId <= tickets; ticketId++) {
    for (let m = 0; m < perTicket; m++) {
      const id = messageId(ticketId, 1_000_000 + m, 0);
      op.set(messageKey(COMPANY, ticketId, id), { ticketId, body: `mensagem comum pedido${ticketId} linha${m}` });
      if (++pending === 500) {
        await op.commit();
        op = kv.atomic();
        pending = 0;
      }
    }
  }
  await op.commit();
}

/**
 * Writes a message the way the messages actor does: the message and its message log entry in
 * one atomic; `via: "search_log"` as an edit of its text does, or as stores written before
 * issue #34 did for every message.
 */
async function writeLogged(
  system: ActorSystem,
  ticketId: number,
  body: string,
  at = system.now(),
  via: "message_log" | "search_log" = "message_log",
): Promise<string> {
  const id = messageId(ticketId, at, 0);
  await system.kv.atomic()
    .set(messageKey(COMPANY, ticketId, id), { ticketId, body })
    .set(via === "message_log" ? messageLogKey(COMPANY, id) : searchLogKey(COMPANY, at, id), null)
    .commit();
  return id;
}

/** Builds the company's index with a first `MessageSearch` and waits until it is saved. */
async function buildAndSave(system: ActorSystem): Promise<MessageSearch> {
  const first = new MessageSearch(system);
  await first.whenReady(COMPANY);
  await waitFor(async () => (await system.kv.get(HEAD)).value !== null, "the saved index", 30_000);
  await settle(20);
  return first;
}

Deno.test("a restart loads the saved index and replays the log: messages written after the save are found", async () => {
  await withSystem(async ({ system, kv }) => {
    await seedRaw(kv, 300, 20);
    await buildAndSave(system);
    await writeLogged(system, 77, "cliente pediu estorno");
    // Written around the log into an old ticket: a rebuild would read it, a load cannot.
    await kv.set(messageKey(COMPANY, 5, messageId(5, 1_000_500, 0)), { ticketId: 5, body: "invisivel" });

    const next = new MessageSearch(system);
    const started = performance.now();
    await next.whenReady(COMPANY);
    const loadMs = performance.now() - started;
    console.log(`  load of a 6,000-message index: ${loadMs.toFixed(0)} ms`);
    assert.deepEqual(await next.search(COMPANY, "estorno"), { ids: new Set([77]), partial: false });
    assert.equal((await next.search(COMPANY, "comum")).ids.size, 300);
    assert.deepEqual((await next.search(COMPANY, "pedido42 linha7")).ids, new Set([42]));
    assert.deepEqual((await next.search(COMPANY, "invisivel")).ids, new Set(), "it loaded, it did not rebuild");
  });
});

Deno.test("a restart replays both logs: an edit's search log entry and an older store's, beside the message log", async () => {
  await withSystem(async ({ system, kv }) => {
    await seedRaw(kv, 40, 5);
    await buildAndSave(system);
    await writeLogged(system, 11, "primeira via registro", system.now(), "message_log");
    const edited = await writeLogged(system, 12, "texto antigo", system.now(), "message_log");
    // The edit rewrites the message and logs it in the search log, keyed by the edit's time.
    await kv.atomic()
      .set(messageKey(COMPANY, 12, edited), { ticketId: 12, body: "texto corrigido" })
      .set(searchLogKey(COMPANY, system.now(), edited), null)
      .commit();
    await writeLogged(system, 13, "segunda via antiga", system.now(), "search_log");

    const next = new MessageSearch(system);
    await next.whenReady(COMPANY);
    assert.deepEqual((await next.search(COMPANY, "primeira")).ids, new Set([11]));
    assert.deepEqual((await next.search(COMPANY, "corrigido")).ids, new Set([12]));
    assert.deepEqual((await next.search(COMPANY, "antiga")).ids, new Set([13]));
    assert.equal((await next.search(COMPANY, "comum")).ids.size, 40, "loaded, not rebuilt");
  });
});

Deno.test("a save that stopped half-way and a message whose event never came lose nothing", async () => {
  await withSystem(async ({ system, kv }) => {
    await seedRaw(kv, 100, 10);
    await buildAndSave(system);
    const head = (await kv.get<{ gen: number }>(HEAD)).value!;
    // A crash in the middle of the next save: some chunks of the next generation, no new head.
    await kv.set(["search_index", COMPANY, "gen", head.gen + 1, "i", 0], new Uint8Array(16));
    await kv.set(["search_index", COMPANY, "gen", head.gen + 1, "w", 0], new TextEncoder().encode("lixo"));
    // A crash after a message's commit, before its live event: only the store and the log have it.
    await writeLogged(system, 50, "mensagem antes da queda");

    const next = new MessageSearch(system);
    await next.whenReady(COMPANY);
    assert.deepEqual((await next.search(COMPANY, "queda")).ids, new Set([50]));
    assert.deepEqual((await next.search(COMPANY, "lixo")).ids, new Set());
    assert.equal((await next.search(COMPANY, "comum")).ids.size, 100);

    // Its own save replaces the half-written generation and the log it covers is trimmed later.
    await waitFor(async () => (await kv.get<{ gen: number }>(HEAD)).value!.gen === head.gen + 1, "the next save", 30_000);
    await settle(20);
    const after = new MessageSearch(system);
    await after.whenReady(COMPANY);
    assert.deepEqual((await after.search(COMPANY, "queda")).ids, new Set([50]));
    assert.deepEqual((await after.search(COMPANY, "lixo")).ids, new Set());
  });
});

Deno.test("a store written around the log since the save (a seeder's new tickets) is rebuilt, not trusted", async () => {
  // The warning is a JSON log line on stderr (actors/_runtime/log.ts): collect those.
  const warnings: string[] = [];
  const original = Deno.stderr.writeSync;
  Deno.stderr.writeSync = (bytes: Uint8Array) => {
    const line = new TextDecoder().decode(bytes);
    if (line.includes("Message search")) warnings.push(line);
    return bytes.length;
  };
  try {
    await withSystem(async ({ system, kv }) => {
      await seedRaw(kv, 50, 10);
      await buildAndSave(system);
      await kv.set(messageKey(COMPANY, 900, messageId(900, 2_000_000, 0)), { ticketId: 900, body: "semeado por fora" });

      const next = new MessageSearch(system);
      await next.whenReady(COMPANY);
      assert.deepEqual(await next.search(COMPANY, "semeado"), { ids: new Set([900]), partial: false });
      assert.equal((await next.search(COMPANY, "comum")).ids.size, 50);
      assert.equal(warnings.length, 1);
    });
  } finally {
    Deno.stderr.writeSync = original;
  }
});
