/**
 * What the desk's bulk load (index.ts `loadAll`) reads of each ticket record, read in ONE
 * pass in the order the records sit in the array (the order they were decoded, so the order
 * they sit in memory), into typed arrays by position.
 *
 * Why (issue #23 §3): at a million tickets the records take ~430 MB, and the load's passes in
 * recency order read each record's fields, its uuid string and its boxed dates at scattered
 * addresses: a cache and TLB miss per field, most of an 8 s load. Read once in memory order,
 * every later step (the sort, the columns, the groups, the uuid table, the lists, the active
 * tickets) works on these arrays and touches a record again only for its tags or its
 * opportunity.
 */
import type { Ticket } from "../../domain/ticket.ts";
import { GROUP_BIT, NONE, STATUS_CODE } from "./columns.ts";
import { hashOf } from "./uuid_index.ts";
import type { RecencyOrder } from "./recency_sort.ts";

/** Bits of `extra`: what the load must still read from the record itself. */
export const HAS_TAGS = 1;
export const HAS_OPORTUNIDADE = 2;

/** The rows by position in the records' array; see the module doc. */
export interface LoadRows {
  readonly id: Int32Array;
  readonly updated: Float64Array;
  readonly created: Float64Array;
  /** As columns.ts stores them: status code, GROUP_BIT. */
  readonly flags: Uint8Array;
  /** NONE for none, as columns.ts. */
  readonly user: Int32Array;
  readonly queue: Int32Array;
  readonly whatsapp: Int32Array;
  readonly contact: Int32Array;
  /** `hashOf` the uuid (uuid_index.ts). */
  readonly uuidHash: Int32Array;
  readonly extra: Uint8Array;
}

/** Rows for `n` tickets with these ids; `updated` and `uuidHash` of `early` entries (0: none). */
function newRows(n: number, id: Int32Array, early: number): LoadRows {
  return {
    id,
    updated: new Float64Array(early),
    created: new Float64Array(n),
    flags: new Uint8Array(n),
    user: new Int32Array(n),
    queue: new Int32Array(n),
    whatsapp: new Int32Array(n),
    contact: new Int32Array(n),
    uuidHash: new Int32Array(early),
    extra: new Uint8Array(n),
  };
}

/** A non-negative int32: what the typed columns hold exactly. */
function plainRef(x: number): boolean {
  return (x | 0) === x && x >= 0;
}

/**
 * The rows of `tickets`, or undefined when one holds what the typed arrays would not keep
 * exactly (an id not positive, a reference not a non-negative int32, an odd status or uuid):
 * then the load takes the record-by-record path.
 */
export function readRows(tickets: readonly Ticket[]): LoadRows | undefined {
  const n = tickets.length;
  const rows = newRows(n, new Int32Array(n), n);
  for (let i = 0; i < n; i++) {
    const t = tickets[i];
    const { id, userId, queueId, whatsappId, contactId, uuid } = t;
    const status = STATUS_CODE[t.status];
    if (
      !plainRef(id) || id === 0 || !plainRef(contactId) || (userId !== null && !plainRef(userId)) ||
      (queueId !== null && !plainRef(queueId)) || (whatsappId !== null && !plainRef(whatsappId)) ||
      typeof uuid !== "string" || (status !== 1 && status !== 2 && status !== 3)
    ) return undefined;
    rows.id[i] = id;
    rows.updated[i] = t.updatedAt;
    rows.created[i] = t.createdAt;
    rows.flags[i] = status | (t.isGroup ? GROUP_BIT : 0);
    rows.user[i] = userId ?? NONE;
    rows.queue[i] = queueId ?? NONE;
    rows.whatsapp[i] = whatsappId ?? NONE;
    rows.contact[i] = contactId;
    rows.uuidHash[i] = hashOf(uuid);
    rows.extra[i] = (t.tagIds.length ? HAS_TAGS : 0) | (t.oportunidadeId !== null ? HAS_OPORTUNIDADE : 0);
  }
  return rows;
}

/**
 * The same rows put in `order` (oldest first: `id` becomes `order.ids`; `updated` and
 * `uuidHash`, used before, are left empty), so the steps that
 * build in recency order (the lists, the groups) read them front to back: reading the rows
 * by id in that order was a cache miss per field (1.7 s for the lists at a million tickets).
 * One scatter: the positions are read in order, the writes land anywhere (they do not wait).
 */
export function rankRows(rows: LoadRows, order: RecencyOrder): LoadRows {
  const { ids, at } = order;
  const n = ids.length;
  const rankOf = new Int32Array(n);
  for (let k = 0; k < n; k++) rankOf[at[ids[k]] - 1] = k;
  const out = newRows(n, ids, 0);
  for (let i = 0; i < n; i++) {
    const k = rankOf[i];
    out.created[k] = rows.created[i];
    out.flags[k] = rows.flags[i];
    out.user[k] = rows.user[i];
    out.queue[k] = rows.queue[i];
    out.whatsapp[k] = rows.whatsapp[i];
    out.contact[k] = rows.contact[i];
    out.extra[k] = rows.extra[i];
  }
  return out;
}
