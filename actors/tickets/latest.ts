/**
 * A ticket's latest-message fields in KV (domain/ticket.ts `TicketLatest`, keys.ts
 * `ticketLatestKey`): the note a message leaves on its ticket, stored on its own.
 *
 * Why: a message changes five fields of its ticket (preview, times, unread counter, who wrote
 * last), and the message and that change commit in one atomic. Rewriting the whole record
 * (~420 B, about 30 fields through V8's serializer) for each message cost the ingest path
 * more than the message itself (issue #34); these fields are ~60 B. Reading a ticket (unread
 * back to 0) writes them the same way.
 *
 * Any other change writes the whole record, which carries the current fields and the
 * `latestSeq` they include, so the key is never deleted while the ticket lives: a load
 * applies it only when its `seq` is higher than the record's `latestSeq` (`withStoredLatest`),
 * whatever order the two keys were written or restored in.
 *
 * The KV kind is not "ticket_note": that is the agents' notes collection (actors/notes).
 *
 * Stored as bytes (`LatestWriter`), not as an object: KV writes a Uint8Array as it is, and
 * any other value through V8's serializer, whose call costs ~3.7 µs however small the value
 * (~5 µs for a whole message), once per message on the ingest path. A layout of fixed fields
 * and the preview's UTF-8 costs ~0.3 µs. Stores written before hold the object; both read.
 */
import { type Ticket, TicketLatest, withStoredLatest } from "../../domain/ticket.ts";
import { companyTicketLatestPrefix } from "./keys.ts";

/**
 * The stored bytes: [0] the layout's version (1); [1] flags (1: lastFromMe, 2: no
 * latestCreatedAt); then little-endian float64s at 2 seq, 10 updatedAt, 18 latestCreatedAt,
 * 26 unreadMessages; from 34 the preview (`lastMessage`) in UTF-8.
 */
const VERSION = 1;
const FROM_ME = 1;
const NO_CREATED_AT = 2;
const HEAD = 34;
const SLAB_BYTES = 65_536;

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder();

/**
 * Encodes `TicketLatest`s into views of one slab it fills forwards (a new slab once full), so
 * a value costs no buffer of its own. A view is never written again: KV reads it at commit,
 * and a full slab lives on only while views of it do. One per desk (its state), not global.
 */
export class LatestWriter {
  #slab = new Uint8Array(SLAB_BYTES);
  #view = new DataView(this.#slab.buffer);
  #at = 0;

  encode(latest: TicketLatest): Uint8Array {
    const most = HEAD + latest.lastMessage.length * 3;
    if (this.#at + most > this.#slab.length) {
      this.#slab = new Uint8Array(Math.max(SLAB_BYTES, most));
      this.#view = new DataView(this.#slab.buffer);
      this.#at = 0;
    }
    const slab = this.#slab;
    const view = this.#view;
    const at = this.#at;
    slab[at] = VERSION;
    slab[at + 1] = (latest.lastFromMe ? FROM_ME : 0) | (latest.latestCreatedAt === null ? NO_CREATED_AT : 0);
    view.setFloat64(at + 2, latest.seq, true);
    view.setFloat64(at + 10, latest.updatedAt, true);
    view.setFloat64(at + 18, latest.latestCreatedAt ?? 0, true);
    view.setFloat64(at + 26, latest.unreadMessages, true);
    const { written } = utf8.encodeInto(latest.lastMessage, slab.subarray(at + HEAD, at + most));
    this.#at = at + HEAD + written;
    return slab.subarray(at, this.#at);
  }
}

/** The stored fields of `raw` (bytes, or an object of an older store); undefined when neither. */
export function decodeLatest(raw: unknown): TicketLatest | undefined {
  if (!(raw instanceof Uint8Array)) {
    const parsed = TicketLatest.safeParse(raw);
    return parsed.success ? parsed.data : undefined;
  }
  if (raw.length < HEAD || raw[0] !== VERSION) return undefined;
  const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
  const flags = raw[1];
  return {
    seq: view.getFloat64(2, true),
    lastMessage: fromUtf8.decode(raw.subarray(HEAD)),
    updatedAt: view.getFloat64(10, true),
    latestCreatedAt: flags & NO_CREATED_AT ? null : view.getFloat64(18, true),
    unreadMessages: view.getFloat64(26, true),
    lastFromMe: (flags & FROM_ME) !== 0,
  };
}

/** `t` with its stored latest-message fields applied (a value of another shape is ignored). */
export function applyStoredLatest(t: Ticket, raw: unknown): Ticket {
  const stored = decodeLatest(raw);
  return stored ? withStoredLatest(t, stored) : t;
}

/** Every ticket's stored latest-message fields in the company, by ticket id. */
export async function listLatest(kv: Deno.Kv, companyId: number): Promise<Map<number, unknown>> {
  const latest = new Map<number, unknown>();
  for await (const entry of kv.list({ prefix: companyTicketLatestPrefix(companyId) }, { batchSize: 1000 })) {
    latest.set(entry.key[2] as number, entry.value);
  }
  return latest;
}
