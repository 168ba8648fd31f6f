/**
 * The fields the ticket report filters and sorts on (spec 002 §2.14), kept as typed arrays
 * indexed by ticket id (ids come from a per-company counter, so they are dense) next to the
 * ticket index (index.ts keeps them in step on every put and drop).
 *
 * Why: a report scan reads a few fields of up to every ticket, and the ticket records (KV
 * snapshots of many shapes) cost ~0.2–1 µs per property read on a busy machine, which made
 * a 3,500-ticket page ~10 ms and a 100,000-ticket scan ~100 ms. From typed arrays the same
 * scan costs well under a millisecond.
 *
 * Beside them, for the report to read fewer ids than all (report.ts): the ids of each user's
 * and each queue's tickets, every id in creation order (`createdOrder`), so a date range is a
 * binary search and a slice instead of a pass over every ticket, and the tickets created per
 * day per combination of these columns (`byDay`), so a total over whole days reads no ticket.
 */
import type { Ticket, TicketStatus } from "../../domain/ticket.ts";
import { DayCounts } from "./day_counts.ts";
import { IdGroups } from "./id_groups.ts";
import type { LoadRows } from "./load_rows.ts";

/** Status codes in `flags` (0: no ticket with this id); bit 2 marks a group. */
export const STATUS_CODE: Readonly<Record<TicketStatus, number>> = { open: 1, pending: 2, closed: 3 };
export const GROUP_BIT = 4;
/** What `user`, `queue` and `whatsapp` hold for none. */
export const NONE = -1;

/** The report's columns; see the module doc. */
export class TicketColumns {
  flags = new Uint8Array(1024);
  created = new Float64Array(1024);
  /** `updatedAt`: a search's matches are ordered by it without reading their records (query.ts). */
  updated = new Float64Array(1024);
  user = new Int32Array(1024);
  queue = new Int32Array(1024);
  whatsapp = new Int32Array(1024);
  contact = new Int32Array(1024);
  /** One past the highest id ever set. */
  end = 1;

  #grow(id: number): void {
    let size = this.flags.length;
    while (size <= id) size *= 2;
    const grow = <A extends Uint8Array | Float64Array | Int32Array>(old: A, make: (n: number) => A): A => {
      const next = make(size);
      next.set(old);
      return next;
    };
    this.flags = grow(this.flags, (n) => new Uint8Array(n));
    this.created = grow(this.created, (n) => new Float64Array(n));
    this.updated = grow(this.updated, (n) => new Float64Array(n));
    this.user = grow(this.user, (n) => new Int32Array(n));
    this.queue = grow(this.queue, (n) => new Int32Array(n));
    this.whatsapp = grow(this.whatsapp, (n) => new Int32Array(n));
    this.contact = grow(this.contact, (n) => new Int32Array(n));
  }

  /** Tickets created per UTC day per combination of the columns above (day_counts.ts). */
  readonly byDay = new DayCounts();
  /** Ticket ids per user and per queue (every status), in typed arrays (id_groups.ts). */
  readonly idsByUser = new IdGroups();
  readonly idsByQueue = new IdGroups();
  /** Ids by (created, id) ascending in `#order[0, #ordered)`, when `#sorted`; see `createdOrder`. */
  #order = new Int32Array(1024);
  #ordered = 0;
  #sorted = true;

  /** Records (or updates) ticket `t`. */
  set(t: Ticket): void {
    const id = t.id;
    if (id >= this.flags.length) this.#grow(id);
    if (id >= this.end) this.end = id + 1;
    const fresh = this.flags[id] === 0;
    const userId = t.userId ?? NONE;
    const queueId = t.queueId ?? NONE;
    if (fresh || this.user[id] !== userId) {
      if (!fresh) this.idsByUser.delete(this.user[id], id);
      this.idsByUser.add(userId, id);
    }
    if (fresh || this.queue[id] !== queueId) {
      if (!fresh) this.idsByQueue.delete(this.queue[id], id);
      this.idsByQueue.add(queueId, id);
    }
    if (fresh) this.#append(id, t.createdAt);
    else if (this.created[id] !== t.createdAt) this.#sorted = false;
    const flags = STATUS_CODE[t.status] | (t.isGroup ? GROUP_BIT : 0);
    const whatsappId = t.whatsappId ?? NONE;
    if (
      fresh || this.flags[id] !== flags || this.user[id] !== userId || this.queue[id] !== queueId ||
      this.whatsapp[id] !== whatsappId || this.created[id] !== t.createdAt
    ) {
      if (!fresh) this.#countDay(id, -1);
      this.byDay.count(t.createdAt, flags, userId, queueId, whatsappId, 1);
    }
    this.flags[id] = flags;
    this.created[id] = t.createdAt;
    this.updated[id] = t.updatedAt;
    this.user[id] = userId;
    this.queue[id] = queueId;
    this.whatsapp[id] = whatsappId;
    this.contact[id] = t.contactId;
  }

  /**
   * The bulk load into columns holding no ticket (index.ts `loadAll` of an empty index):
   * what `set` of each ticket oldest first would build,
   * from its rows in that order (load_rows.ts `rankRows`) instead of the records. The
   * fields go in by id, the day counts are taken by ascending id (a day after another, see
   * day_counts.ts), the groups and the creation order in the rows' order.
   */
  loadAll(ranked: LoadRows, dated: Pick<LoadRows, "id" | "updated">): void {
    const ids = ranked.id;
    const n = ids.length;
    let maxId = 0;
    for (let k = 0; k < n; k++) if (ids[k] > maxId) maxId = ids[k];
    if (maxId >= this.flags.length) this.#grow(maxId);
    if (n > 0 && maxId >= this.end) this.end = maxId + 1;
    for (let k = 0; k < n; k++) {
      const id = ids[k];
      this.flags[id] = ranked.flags[k];
      this.created[id] = ranked.created[k];
      this.user[id] = ranked.user[k];
      this.queue[id] = ranked.queue[k];
      this.whatsapp[id] = ranked.whatsapp[k];
      this.contact[id] = ranked.contact[k];
    }
    // Ranked rows leave `updated` empty (load_rows.ts `rankRows`): it comes from the rows before.
    for (let i = 0; i < dated.id.length; i++) this.updated[dated.id[i]] = dated.updated[i];
    for (let id = 1; id <= maxId; id++) if (this.flags[id] !== 0) this.#countDay(id, 1);
    this.idsByUser.addAll(ranked.user, ids);
    this.idsByQueue.addAll(ranked.queue, ids);
    for (let k = 0; k < n && this.#sorted; k++) this.#append(ids[k], ranked.created[k]);
  }

  #countDay(id: number, delta: 1 | -1): void {
    this.byDay.count(this.created[id], this.flags[id], this.user[id], this.queue[id], this.whatsapp[id], delta);
  }

  /** Forgets ticket `id`. */
  delete(id: number): void {
    if (id >= this.flags.length || this.flags[id] === 0) return;
    this.#countDay(id, -1);
    this.flags[id] = 0;
    this.idsByUser.delete(this.user[id], id);
    this.idsByQueue.delete(this.queue[id], id);
    this.#sorted = false; // its slot in the order goes at the next sort (deletes are rare)
  }

  /** A new id joins the order: at the end when it is the newest (a new ticket), else a sort is due. */
  #append(id: number, createdAt: number): void {
    if (!this.#sorted) return;
    const last = this.#ordered > 0 ? this.#order[this.#ordered - 1] : -1;
    if (last >= 0 && (this.created[last] > createdAt || (this.created[last] === createdAt && last > id))) {
      this.#sorted = false;
      return;
    }
    if (this.#ordered === this.#order.length) {
      const grown = new Int32Array(this.#order.length * 2);
      grown.set(this.#order);
      this.#order = grown;
    }
    this.#order[this.#ordered++] = id;
  }

  /**
   * Every id by creation (then id), oldest first. Sorted again only after a bulk load, an
   * older ticket added, or a delete (~50 ms for 100,000 ids); new tickets append.
   */
  createdOrder(): Int32Array {
    if (!this.#sorted) {
      const ids: number[] = [];
      for (let id = 1; id < this.end; id++) if (this.flags[id] !== 0) ids.push(id);
      const created = this.created;
      this.#order = Int32Array.from(ids).sort((a, b) => created[a] - created[b] || a - b);
      this.#ordered = this.#order.length;
      this.#sorted = true;
    }
    return this.#order.subarray(0, this.#ordered);
  }

  /** Whether a ticket with this id exists. */
  has(id: number): boolean {
    return id > 0 && id < this.end && this.flags[id] !== 0;
  }
}
