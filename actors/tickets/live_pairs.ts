/**
 * How many tickets are open and how many pending now, per (queue, user) pair: the
 * dashboard's live cards ("Em atendimento", "Aguardando", per queue and per user) under any
 * queue and user filter. Kept by the ticket index on every change (index.ts), so a filtered
 * read adds up the few pairs (queues × users) instead of walking the open tickets: walking
 * them cost ~9 ms per one-queue request with 20,000 open tickets (bench/reports.ts).
 */
import type { Ticket } from "../../domain/ticket.ts";

/** One pair's count; 0 stands for "no queue" / "no user". */
export interface LivePair {
  readonly queueKey: number;
  readonly userKey: number;
  n: number;
}

/** A pair as one number (user ids stay far below 10^7, as in actors/dashboard). */
function pairOf(queueKey: number, userKey: number): number {
  return queueKey * 10_000_000 + userKey;
}

/** The counts of open and pending tickets per pair; see the module doc. */
export class LivePairs {
  readonly open = new Map<number, LivePair>();
  readonly pending = new Map<number, LivePair>();

  /** Counts `t` in (`delta` 1) or out (`delta` -1); closed tickets are not counted. */
  count(t: Ticket, delta: 1 | -1): void {
    if (t.status !== "closed") this.countPair(t.status, t.queueId ?? 0, t.userId ?? 0, delta);
  }

  /** `count` of a ticket with this status, queue key and user key (the bulk load's, from columns). */
  countPair(status: "open" | "pending", queueKey: number, userKey: number, delta: 1 | -1): void {
    const map = this[status];
    const key = pairOf(queueKey, userKey);
    const pair = map.get(key);
    if (!pair) {
      if (delta > 0) map.set(key, { queueKey, userKey, n: delta });
      return;
    }
    pair.n += delta;
    if (pair.n <= 0) map.delete(key);
  }
}
