/**
 * The fields the ticket report filters and sorts on (spec 002 §2.14), kept as typed arrays
 * indexed by ticket id (ids come from a per-company counter, so they are dense) next to the
 * ticket index (index.ts keeps them in step on every put and drop).
 *
 * Why: a report scan reads a few fields of up to every ticket, and the ticket records (KV
 * snapshots of many shapes) cost ~0.2–1 µs per property read on a busy machine, which made
 * a 3,500-ticket page ~10 ms and a 100,000-ticket scan ~100 ms. From typed arrays the same
 * scan costs well under a millisecond.
 */
import type { Ticket, TicketStatus } from "../../domain/ticket.ts";

/** Status codes in `flags` (0: no ticket with this id); bit 2 marks a group. */
export const STATUS_CODE: Readonly<Record<TicketStatus, number>> = { open: 1, pending: 2, closed: 3 };
export const GROUP_BIT = 4;
/** What `user`, `queue` and `whatsapp` hold for none. */
export const NONE = -1;

/** The report's columns; see the module doc. */
export class TicketColumns {
  flags = new Uint8Array(1024);
  created = new Float64Array(1024);
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
    this.user = grow(this.user, (n) => new Int32Array(n));
    this.queue = grow(this.queue, (n) => new Int32Array(n));
    this.whatsapp = grow(this.whatsapp, (n) => new Int32Array(n));
    this.contact = grow(this.contact, (n) => new Int32Array(n));
  }

  /** Records (or updates) ticket `t`. */
  set(t: Ticket): void {
    const id = t.id;
    if (id >= this.flags.length) this.#grow(id);
    if (id >= this.end) this.end = id + 1;
    this.flags[id] = STATUS_CODE[t.status] | (t.isGroup ? GROUP_BIT : 0);
    this.created[id] = t.createdAt;
    this.user[id] = t.userId ?? NONE;
    this.queue[id] = t.queueId ?? NONE;
    this.whatsapp[id] = t.whatsappId ?? NONE;
    this.contact[id] = t.contactId;
  }

  /** Forgets ticket `id`. */
  delete(id: number): void {
    if (id < this.flags.length) this.flags[id] = 0;
  }

  /** Whether a ticket with this id exists. */
  has(id: number): boolean {
    return id > 0 && id < this.end && this.flags[id] !== 0;
  }
}
