import assert from "node:assert/strict";
import { buildTicket, type Ticket, type TicketStatus } from "../../domain/ticket.ts";
import { byCreatedDesc, reportMatcher, TicketReportFilter } from "../../domain/ticket_report.ts";
import { TicketIndex } from "./index.ts";
import { reportAll, reportPage } from "./report.ts";

/** A deterministic PRNG so a failure reproduces. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), s | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const DAY = 86_400_000;
const BASE = Date.UTC(2025, 0, 1);

function world(random: () => number): { index: TicketIndex; tickets: Ticket[] } {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)];
  const tickets: Ticket[] = [];
  for (let id = 1; id <= 1500; id++) {
    const status = pick<TicketStatus>(["open", "pending", "closed"]);
    const t = buildTicket({
      id,
      uuid: crypto.randomUUID(),
      companyId: 1,
      contactId: 1 + Math.floor(random() * 300),
      whatsappId: pick([1, 2, 3]),
      queueId: pick([1, 2, 3, null]),
      userId: status === "pending" ? null : pick([1, 2, 3, 4, 5]),
      status,
      isGroup: random() < 0.1,
      channel: "whatsapp",
    }, BASE + Math.floor(random() * 30 * DAY));
    t.tagIds = random() < 0.3 ? [pick([1, 2, 3])] : [];
    t.updatedAt = t.createdAt + Math.floor(random() * DAY);
    tickets.push(t);
  }
  const index = new TicketIndex();
  index.loadAll([...tickets]);
  return { index, tickets };
}

function randomFilter(random: () => number): TicketReportFilter {
  const some = <T>(xs: T[]) => xs.filter(() => random() < 0.35);
  const maybe = <T>(p: number, v: () => T) => (random() < p ? v() : undefined);
  const from = maybe(0.3, () => new Date(BASE + Math.floor(random() * 30 * DAY)).toISOString());
  return TicketReportFilter.parse({
    ticketId: maybe(0.05, () => String(1 + Math.floor(random() * 1500))),
    contactId: maybe(0.15, () => String(1 + Math.floor(random() * 300))),
    whatsappId: maybe(0.3, () => String(1 + Math.floor(random() * 3))),
    tags: JSON.stringify(some([1, 2, 3])),
    users: JSON.stringify(some([1, 2, 3, 4, 5])),
    queueIds: JSON.stringify(some([1, 2, 3])),
    status: JSON.stringify(some(["open", "pending", "closed", "group"])),
    dateFrom: from,
    dateTo: maybe(0.3, () => new Date(BASE + Math.floor(random() * 30 * DAY)).toISOString()),
  });
}

Deno.test("reportPage() and reportAll() equal a brute-force filter and sort for 400 random filters", () => {
  const random = rng(18);
  const { index, tickets } = world(random);
  for (let n = 0; n < 400; n++) {
    const q = randomFilter(random);
    const expected = tickets.filter(reportMatcher(q)).sort(byCreatedDesc).map((t) => t.id);
    assert.deepEqual(reportAll(index, q).map((t) => t.id), expected, JSON.stringify(q));
    const size = [5, 10, 20, 50, 100][n % 5];
    const page = 1 + (n % 4);
    const got = reportPage(index, q, page, size);
    assert.equal(got.total, expected.length, JSON.stringify(q));
    assert.deepEqual(got.tickets.map((t) => t.id), expected.slice((page - 1) * size, page * size), JSON.stringify(q));
  }
});

Deno.test("reportPage() narrows by the text search's matches and pages deep ones by one sort", () => {
  const { index, tickets } = world(rng(7));
  const searchIds = new Set(tickets.filter((t) => t.id % 7 === 0).map((t) => t.id));
  const q = TicketReportFilter.parse({});
  const expected = tickets.filter((t) => searchIds.has(t.id)).sort(byCreatedDesc).map((t) => t.id);
  assert.deepEqual(reportPage(index, q, 2, 20, searchIds).tickets.map((t) => t.id), expected.slice(20, 40));
  const all = tickets.slice().sort(byCreatedDesc).map((t) => t.id);
  assert.deepEqual(reportPage(index, q, 8, 100).tickets.map((t) => t.id), all.slice(700, 800));
});

Deno.test("reportPage() narrows by a user's or queue's ids and by the creation order, and stays exact through changes", () => {
  const random = rng(23);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)];
  const USERS = Array.from({ length: 30 }, (_, i) => i + 1);
  const QUEUES = Array.from({ length: 12 }, (_, i) => i + 1);
  let nextId = 1;
  const make = (createdAt: number): Ticket => {
    const status = pick<TicketStatus>(["open", "pending", "closed"]);
    const id = nextId++;
    return buildTicket({
      id, uuid: `u${id}`, companyId: 1, contactId: 1 + Math.floor(random() * 300), whatsappId: pick([1, 2]),
      queueId: pick([...QUEUES, null]), userId: status === "pending" ? null : pick(USERS), status,
      isGroup: false, channel: "whatsapp",
    }, createdAt);
  };
  const index = new TicketIndex();
  index.loadAll(Array.from({ length: 1500 }, () => make(BASE + Math.floor(random() * 30 * DAY))));
  const check = (label: string) => {
    const tickets = [...index.byId.values()];
    for (let n = 0; n < 40; n++) {
      const from = random() < 0.6 ? new Date(BASE + Math.floor(random() * 32 * DAY)).toISOString() : undefined;
      const q = TicketReportFilter.parse({
        users: random() < 0.5 ? JSON.stringify([pick(USERS)]) : "[]",
        queueIds: random() < 0.4 ? JSON.stringify([pick(QUEUES), pick(QUEUES)]) : "[]",
        status: random() < 0.5 ? JSON.stringify(["closed"]) : "[]",
        dateFrom: from,
        dateTo: from && random() < 0.5 ? new Date(Date.parse(from) + Math.floor(random() * 5 * DAY)).toISOString() : undefined,
      });
      const expected = tickets.filter(reportMatcher(q)).sort(byCreatedDesc).map((t) => t.id);
      const got = reportPage(index, q, 1, 10);
      assert.equal(got.total, expected.length, `${label} ${JSON.stringify(q)}`);
      assert.deepEqual(got.tickets.map((t) => t.id), expected.slice(0, 10), `${label} ${JSON.stringify(q)}`);
    }
  };
  check("loaded");
  for (let round = 0; round < 5; round++) {
    for (let i = 0; i < 100; i++) {
      const ids = [...index.byId.keys()];
      const r = random();
      // New tickets (now, or older than the newest), transfers, status changes and deletes.
      if (r < 0.3) index.put(make(BASE + (r < 0.25 ? 31 * DAY + round * DAY + i : Math.floor(random() * 30 * DAY))));
      else if (r < 0.35) index.drop(pick(ids));
      else {
        const t = index.byId.get(pick(ids))!;
        index.put({ ...t, userId: pick([...USERS, null]), queueId: pick([...QUEUES, null]), status: pick(["open", "pending", "closed"] as const) });
      }
    }
    check(`round ${round}`);
  }
});
