/**
 * The message index while it builds (issue #23 §1): searches answer at once from what is
 * indexed so far (newest tickets first) plus live messages and say they are partial; the
 * build lets the event loop run between slices; a dropped or closed store stops it quietly.
 */
import assert from "node:assert/strict";
import type { ActorSystem } from "../_runtime/system.ts";
import { settle, withSystem } from "../_runtime/testing.ts";
import { messageKey } from "./keys.ts";
import { MessageSearch } from "./search_index.ts";

const COMPANY = 7;

/**
 * Writes `tickets` tickets of `perTicket` messages each straight into KV: every message has
 * "comum", the last message of every tenth ticket (id % 10 = 3) has "raro".
 */
async function seed(kv: Deno.Kv, tickets: number, perTicket: number): Promise<void> {
  let op = kv.atomic();
  let pending = 0;
  for (let ticketId = 1; ticketId <= tickets; ticketId++) {
    for (let m = 0; m < perTicket; m++) {
      const rare = ticketId % 10 === 3 && m === perTicket - 1 ? " raro" : "";
      const body = `mensagem comum numero${m} pedido${ticketId}${rare}`;
      op.set(messageKey(COMPANY, ticketId, `m${String(m).padStart(4, "0")}`), { ticketId, body });
      if (++pending === 500) {
        await op.commit();
        op = kv.atomic();
        pending = 0;
      }
    }
  }
  await op.commit();
}

/** Publishes a new message the way the messages area does (`appMessage`). */
function publishMessage(system: ActorSystem, ticketId: number, body: string): void {
  system.bus.publish({
    companyId: COMPANY,
    channel: `company-${COMPANY}-appMessage`,
    data: { action: "create", message: { ticketId, body } },
    scope: { kind: "company" },
  });
}

const range = (from: number, to: number) => new Set(Array.from({ length: to - from + 1 }, (_, i) => from + i));

Deno.test("a search during the build answers at once, newest tickets first, with live messages, flagged partial", async () => {
  await withSystem(async ({ system, kv }) => {
    await seed(kv, 600, 100);
    const search = new MessageSearch(system);
    search.warmAll([COMPANY]);
    while (search.pairs === 0) await settle(1);

    const started = performance.now();
    const early = await search.search(COMPANY, "comum", 0);
    const tookMs = performance.now() - started;
    assert.equal(early.partial, true);
    assert.equal(search.ready(COMPANY), false, "the search did not wait for the build");
    // The pass reads the newest tickets first: what it found is a run of the highest ids.
    assert.ok(early.ids.size > 0 && early.ids.size < 600, `found ${early.ids.size}`);
    assert.deepEqual(early.ids, range(600 - early.ids.size + 1, 600));
    console.log(`  search during the build: ${tookMs.toFixed(2)} ms, ${early.ids.size} of 600 tickets`);

    // A message arriving now on a ticket the pass has not reached is found at once.
    publishMessage(system, 1, "novidade do cliente");
    const live = await search.search(COMPANY, "novidade", 0);
    assert.deepEqual(live, { ids: new Set([1]), partial: true });

    await search.whenReady(COMPANY);
    assert.equal(search.ready(COMPANY), true);
    assert.deepEqual(await search.search(COMPANY, "comum", 0), { ids: range(1, 600), partial: false });
    const rare = await search.search(COMPANY, "raro comum");
    assert.deepEqual(rare.ids, new Set([...range(1, 600)].filter((id) => id % 10 === 3)));
    assert.deepEqual((await search.search(COMPANY, "novidade")).ids, new Set([1]));
    assert.equal(search.pairs, 600 * (100 + 3) + 60 + 2, "pairs are exact once built (mensagem, comum, pedidoN, numero0..99; raro; novidade, cliente)");
  });
});

Deno.test("a search of a small company waits for its build and answers complete", async () => {
  await withSystem(async ({ system, kv }) => {
    await seed(kv, 20, 3);
    const search = new MessageSearch(system);
    const found = await search.search(COMPANY, "raro", 5_000);
    assert.deepEqual(found, { ids: new Set([3, 13]), partial: false });
  });
});

Deno.test("several words: each ticket has every one, whether the rare word or the common one is given first", async () => {
  await withSystem(async ({ system, kv }) => {
    await seed(kv, 400, 2);
    const search = new MessageSearch(system);
    const rare = new Set(Array.from({ length: 40 }, (_, i) => i * 10 + 3));
    // "comum" is in all 400 tickets' packed lists, "raro" in 40: the rare one goes first and
    // the common one only tests those 40 ids (search_index.ts `match`).
    assert.deepEqual((await search.search(COMPANY, "comum raro", 5_000)).ids, rare);
    assert.deepEqual((await search.search(COMPANY, "raro comum", 5_000)).ids, rare);
    // A word matches inside words: "pedido13" is in pedido13 and pedido130–139.
    assert.deepEqual((await search.search(COMPANY, "raro pedido13", 5_000)).ids, new Set([13, 133]));
    assert.deepEqual((await search.search(COMPANY, "comum inexistente", 5_000)).ids, new Set());
    // 11 tickets against 400: "comum" is tested by binary search in each of those 11.
    const seventies = new Set([7, ...range(70, 79)]);
    assert.deepEqual((await search.search(COMPANY, "comum pedido7", 5_000)).ids, seventies);
    assert.deepEqual((await search.search(COMPANY, "pedido7 numero1", 5_000)).ids, seventies);
    assert.deepEqual((await search.search(COMPANY, "pedido7 numero2", 5_000)).ids, new Set());
    // A live message's words count too, for the probed word as well.
    publishMessage(system, 7, "agora raro também");
    await settle();
    assert.deepEqual((await search.search(COMPANY, "comum raro", 5_000)).ids, new Set([...rare, 7]));
  });
});

Deno.test("a build works in slices: timers keep firing while it runs", async () => {
  await withSystem(async ({ system, kv }) => {
    await seed(kv, 500, 100);
    const search = new MessageSearch(system);
    const gaps: number[] = [];
    let last = performance.now();
    let ticking = true;
    const tick = () => {
      const now = performance.now();
      gaps.push(now - last);
      last = now;
      if (ticking) setTimeout(tick, 1);
    };
    setTimeout(tick, 1);
    const started = performance.now();
    await search.whenReady(COMPANY);
    const buildMs = performance.now() - started;
    ticking = false;
    await settle(2);
    const worst = Math.max(...gaps);
    console.log(`  build of 50,000 messages: ${buildMs.toFixed(0)} ms; ${gaps.length} timer turns, worst gap ${worst.toFixed(1)} ms`);
    // One pass without yielding would show one gap as long as the build.
    assert.ok(gaps.length >= 10, `${gaps.length} timer turns`);
    assert.ok(worst < buildMs / 3, `worst gap ${worst.toFixed(1)} ms of a ${buildMs.toFixed(0)} ms build`);
  });
});

Deno.test("dropping a company or closing the store stops its build quietly", async () => {
  const errors: unknown[] = [];
  const original = console.error;
  console.error = (...args: unknown[]) => errors.push(args);
  try {
    let closing: MessageSearch | undefined;
    await withSystem(async ({ system, kv }) => {
      await seed(kv, 300, 100);
      const search = new MessageSearch(system);
      search.warmAll([COMPANY]);
      while (search.pairs === 0) await settle(1);
      search.drop(COMPANY);
      assert.equal(search.pairs, 0);
      await settle(5);
      assert.equal(search.pairs, 0, "the dropped build added nothing more");

      closing = new MessageSearch(system);
      closing.warmAll([COMPANY]);
      while (closing.pairs === 0) await settle(1);
    });
    await settle(20);
    assert.equal(closing!.ready(COMPANY), false);
    assert.deepEqual(errors, []);
  } finally {
    console.error = original;
  }
});
