/**
 * The index's per-pair counts of open and pending tickets (live_pairs.ts) against a count of
 * the index's own records, through a random run of creates, status/queue/user changes, other
 * changes and deletes; and the dashboard's live cards read from them under every filter
 * shape against the same brute force.
 */
import assert from "node:assert/strict";
import { buildTicket, type Ticket, type TicketStatus } from "../../domain/ticket.ts";
import { liveCounts, type PairFilter } from "../dashboard/read.ts";
import { TicketIndex } from "./index.ts";

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

const QUEUES = [null, 10, 11, 12];
const USERS = [null, 3, 4, 5];
const STATUSES: TicketStatus[] = ["open", "pending", "closed"];

function brute(index: TicketIndex, filter: PairFilter) {
  const out = { open: 0, pending: 0, noQueue: 0, openByUser: new Map<number, number>(), byQueue: new Map<number, { open: number; pending: number }>() };
  for (const t of index.byId.values()) {
    if (t.status === "closed") continue;
    const q = t.queueId ?? 0;
    const u = t.userId ?? 0;
    if ((filter.queues && !filter.queues.has(q)) || (filter.users && !filter.users.has(u))) continue;
    out[t.status]++;
    if (q === 0) out.noQueue++;
    const c = out.byQueue.get(q) ?? { open: 0, pending: 0 };
    c[t.status]++;
    out.byQueue.set(q, c);
    if (t.status === "open" && u !== 0) out.openByUser.set(u, (out.openByUser.get(u) ?? 0) + 1);
  }
  return out;
}

Deno.test("LivePairs follow every ticket change, and liveCounts() equals a brute-force count under each filter", () => {
  const random = rng(18);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)];
  const index = new TicketIndex();
  let nextId = 1;
  const make = (): Ticket => {
    const id = nextId++;
    return {
      ...buildTicket({
        id, uuid: `u${id}`, companyId: 1, contactId: id, whatsappId: 1, queueId: pick(QUEUES), userId: pick(USERS),
        status: pick(STATUSES), isGroup: false, channel: "whatsapp",
      }, 1000 + id),
    };
  };
  index.loadAll(Array.from({ length: 50 }, make));
  const filters: PairFilter[] = [
    { queues: null, users: null },
    { queues: new Set([10]), users: null },
    { queues: new Set([0, 11]), users: null },
    { queues: null, users: new Set([3]) },
    { queues: null, users: new Set([0, 4]) },
    { queues: new Set([10, 12]), users: new Set([3, 5]) },
  ];
  for (let step = 0; step < 3000; step++) {
    const r = random();
    const ids = [...index.byId.keys()];
    if (r < 0.2 || ids.length === 0) index.put(make());
    else if (r < 0.25) index.drop(pick(ids));
    else {
      const t = index.byId.get(pick(ids))!;
      const change: Partial<Ticket> = random() < 0.2
        ? { updatedAt: t.updatedAt + 1 } // a message: no pair or status change
        : { status: pick(STATUSES), queueId: pick(QUEUES), userId: pick(USERS), updatedAt: t.updatedAt + 1 };
      index.put({ ...t, ...change });
    }
    if (step % 100 === 0 || step === 2999) {
      for (const filter of filters) assert.deepEqual(liveCounts(index, filter), brute(index, filter), `step ${step}`);
    }
  }
});
