/**
 * The dashboard's derived structures against what they are derived from: each bucket's
 * per-user and per-queue cells (aggregates.ts) equal the sums of its pairs, each day cell the
 * sum of its 24 hour cells (values and hours of the day), after increments and after a
 * rebuild from stored tickets and messages and its read-back; and the sums kept per span
 * (sums_cache.ts), updated in place by later increments, equal a fresh sum of the cells.
 */
import assert from "node:assert/strict";
import { HOUR_MS, HOURLY_METRICS, M, METRIC_COUNT } from "../../domain/dashboard.ts";
import { buildTicket, type Ticket } from "../../domain/ticket.ts";
import { type Cell, DashAggregates, loadAggregates } from "./aggregates.ts";
import { type PairFilter, sumHours } from "./read.ts";

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

const BASE = 20_000 * 24; // an hour bucket at a UTC midnight
const plus = (a: Float64Array, b: Float64Array) => a.forEach((_, i) => a[i] += b[i]);

/** Checks every bucket's sums and every day against its hours. */
function assertConsistent(dash: DashAggregates): void {
  for (const map of [dash.hours, dash.days]) {
    for (const [at, b] of map) {
      const byUser = new Map<number, Float64Array>();
      const byQueue = new Map<number, Float64Array>();
      const add = (m: Map<number, Float64Array>, key: number, v: Float64Array) => {
        if (!m.has(key)) m.set(key, new Float64Array(v.length));
        plus(m.get(key)!, v);
      };
      for (const c of b.cells) {
        add(byUser, c.userKey, c.v);
        add(byQueue, c.queueKey, c.v);
        if (c.hod) {
          add(byUser, -1 - c.userKey, c.hod);
          add(byQueue, -1 - c.queueKey, c.hod);
        }
      }
      const values = (cells: Cell[], key: (c: Cell) => number) =>
        new Map(cells.flatMap((c) => [[key(c), c.v], ...(c.hod ? [[-1 - key(c), c.hod] as const] : [])]));
      assert.deepEqual(values(b.users, (c) => c.userKey), byUser, `users of ${at}`);
      assert.deepEqual(values(b.queues, (c) => c.queueKey), byQueue, `queues of ${at}`);
    }
  }
  for (const [day, d] of dash.days) {
    for (const cell of d.cells) {
      const v = new Float64Array(METRIC_COUNT);
      const hod = new Float64Array(HOURLY_METRICS.length * 24);
      for (let h = 0; h < 24; h++) {
        const hourCell = dash.hours.get(day * 24 + h)?.byPair.get(cell.queueKey * 10_000_000 + cell.userKey);
        if (!hourCell) continue;
        plus(v, hourCell.v);
        HOURLY_METRICS.forEach((m, k) => hod[k * 24 + h] = hourCell.v[M[m]]);
      }
      assert.deepEqual(cell.v, v, `day ${day} pair ${cell.queueKey}/${cell.userKey}`);
      assert.deepEqual(cell.hod, hod, `day ${day} pair ${cell.queueKey}/${cell.userKey} hours`);
    }
  }
}

Deno.test("per-user, per-queue and day cells equal the sums of their pairs and hours after increments", () => {
  const random = rng(7);
  const dash = new DashAggregates();
  for (let i = 0; i < 5000; i++) {
    const hour = BASE + Math.floor(random() * 24 * 6);
    dash.add(hour, [0, 1, 2][Math.floor(random() * 3)], [0, 5, 6, 7][Math.floor(random() * 4)], Math.floor(random() * METRIC_COUNT), 1 + Math.floor(random() * 3));
  }
  assertConsistent(dash);
});

Deno.test("the same holds after a rebuild from stored tickets and messages, and after reading it back", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const random = rng(11);
    const at0 = BASE * HOUR_MS;
    const tickets: Ticket[] = [];
    for (let id = 1; id <= 300; id++) {
      const created = at0 + Math.floor(random() * 5 * 24) * HOUR_MS + 60_000;
      const status = (["open", "pending", "closed"] as const)[Math.floor(random() * 3)];
      const t = buildTicket({
        id, uuid: `u${id}`, companyId: 1, contactId: 1 + Math.floor(random() * 100), whatsappId: 1,
        queueId: [null, 1, 2][Math.floor(random() * 3)], userId: status === "pending" ? null : [5, 6][Math.floor(random() * 2)],
        status, isGroup: false, channel: "whatsapp",
      }, created);
      const acceptedAt = status === "pending" ? null : created + Math.floor(random() * 3) * HOUR_MS;
      const closedAt = status === "closed" ? acceptedAt! + Math.floor(random() * 30) * HOUR_MS : null;
      tickets.push({ ...t, acceptedAt, closedAt, rating: status === "closed" && random() < 0.5 ? 1 + Math.floor(random() * 5) : null });
      for (let m = 0; m < 3; m++) {
        const key = ["message", 1, `m${id}-${m}`];
        await kv.set(key, { ticketId: id, fromMe: m % 2 === 0, createdAt: created + m * HOUR_MS });
      }
    }
    const built = await loadAggregates(kv, 1, tickets);
    assert.ok(built.hours.size > 24);
    assertConsistent(built);
    const read = await loadAggregates(kv, 1, tickets);
    assertConsistent(read);
    assert.deepEqual([...read.days.keys()].sort(), [...built.days.keys()].sort());
  } finally {
    kv.close();
  }
});

Deno.test("sums kept per span follow later increments: equal a fresh sum after each batch", () => {
  const random = rng(3);
  const dash = new DashAggregates();
  const users = [0, 5, 6];
  const spans: Array<[number, number, number | undefined]> = [
    [BASE, BASE + 24 * 4, -3], // whole days with a whole-hour offset: day cells
    [BASE + 5, BASE + 24 * 3 + 7, -3], // ragged ends
    [BASE + 30, BASE + 40, undefined], // hours only
  ];
  const filters: PairFilter[] = [
    { queues: null, users: null },
    { queues: new Set([1]), users: null },
    { queues: null, users: new Set([0, 6]) },
    { queues: new Set([0, 2]), users: new Set([5]) },
  ];
  const slotOf = (hour: number) => (((hour - 3) % 24) + 24) % 24;
  for (let batch = 0; batch < 30; batch++) {
    if (batch === 15) users.push(8); // a new user: kept sums are dropped, then kept again
    for (let i = 0; i < 100; i++) {
      const hour = BASE + Math.floor(random() * 24 * 5);
      dash.add(hour, [0, 1, 2][Math.floor(random() * 3)], users[Math.floor(random() * users.length)], Math.floor(random() * METRIC_COUNT), 1 + Math.floor(random() * 3));
    }
    spans.forEach(([first, end, shift], s) =>
      filters.forEach((filter, f) => {
        const kept = sumHours(dash, first, end, filter, slotOf, shift, `${s}:${f}`);
        const fresh = sumHours(dash, first, end, filter, slotOf, shift);
        assert.deepEqual(kept, fresh, `batch ${batch} span ${s} filter ${f}`);
      })
    );
  }
});
