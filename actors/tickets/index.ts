/**
 * The in-memory indexes of one company's tickets (DESIGN §2 read models): records by id and
 * uuid, the active (open or pending) ticket per contact and connection, tickets per contact
 * and per tag, and lists sorted newest first per status, per status and user, per status
 * and queue, and of groups per status; tickets per opportunity (their count on /oportunidades). Lists answer the inbox without a scan of KV or of
 * every ticket; see query.ts.
 *
 * What is resident, and why (issue #23 §3): EVERY ticket of the company, closed ones too,
 * since the lists, the report (report.ts, columns.ts), the dashboard's counters and a
 * contact's history all read any ticket without KV. Measured on the 1,000,000-ticket store of
 * `bench/inbox.ts --scale=10`: the records ~432 B a ticket (one literal shape, see
 * residentTicket; the uuid and lastMessage strings and five boxed timestamps are most of it),
 * these indexes ~147 B (was ~264 before ids by id, uuid, contact, user and queue moved to
 * arrays: _runtime/dense_id_map.ts, uuid_index.ts, id_groups.ts), 552 MB in all. Not done yet: closed
 * tickets older than N days kept out of memory and paged from KV, which every reader above
 * would need to learn.
 *
 * The cold start at that volume (1M tickets and 500k contacts): 31–35 s when every record is
 * listed from KV, two thirds of it KV's listing and decoding of 1.5M records one by one (V8's
 * deserializer, an entry object and a buffer per value). From 50,000 tickets the desk keeps a
 * snapshot instead (snapshot.ts, actors/_runtime/record_snapshot.ts: the records packed in KV
 * chunks, a mark per ticket changed since, written in the change's own atomic), and a start
 * reads the chunks and only the marked tickets: 8.9–10.5 s to the first list on a quiet
 * 2-core machine, most of it this thread's CPU: loadAll ~2.5 s (it reads each record once in
 * memory order, load_rows.ts), the contacts' build ~2 s, unpacking ~1.3 s, the collector
 * ~1.8 s (bench/cold_start.ts).
 */
import { isActive, type Ticket, type TicketStatus } from "../../domain/ticket.ts";
import { TicketColumns } from "./columns.ts";
import { DenseIdMap } from "../_runtime/dense_id_map.ts";
import { IdGroups } from "./id_groups.ts";
import { UuidIndex } from "./uuid_index.ts";
import { LivePairs } from "./live_pairs.ts";
import { SortedTickets } from "./sorted.ts";
import { applyOrder, recencyOrder, type RecencyOrder, sortOldestFirst } from "./recency_sort.ts";
import { GROUP_BIT, NONE } from "./columns.ts";
import { HAS_OPORTUNIDADE, HAS_TAGS, type LoadRows, rankRows, readRows } from "./load_rows.ts";

/** Queue key of tickets without a queue. */
export const NO_QUEUE = 0;

export const STATUSES: readonly TicketStatus[] = ["open", "pending", "closed"];

function perStatus<T>(make: () => T): Record<TicketStatus, T> {
  return { open: make(), pending: make(), closed: make() };
}

function listIn(map: Map<number, SortedTickets>, key: number): SortedTickets {
  let list = map.get(key);
  if (!list) map.set(key, list = new SortedTickets());
  return list;
}

function addTo<K>(map: Map<K, Set<number>>, key: K, id: number): void {
  let set = map.get(key);
  if (!set) map.set(key, set = new Set());
  set.add(id);
}

function removeFrom<K>(map: Map<K, Set<number>>, key: K, id: number): void {
  const set = map.get(key);
  if (!set) return;
  set.delete(id);
  if (set.size === 0) map.delete(key);
}

/** The key of the one-active-ticket rule: contact and connection, as one number. */
export function activeKey(contactId: number, whatsappId: number | null): number {
  return contactId * 100_000 + (whatsappId ?? 0);
}

/** All indexes of one company's tickets; `put` and `drop` keep them consistent. */
export class TicketIndex {
  /** Records by id in an array (_runtime/dense_id_map.ts: a Map entry was ~37 B a ticket). */
  readonly byId = new DenseIdMap<Ticket>();
  /** Ids by uuid, a hash table of ids that reads uuids from the records (uuid_index.ts). */
  readonly byUuid = new UuidIndex((id) => this.byId.get(id)?.uuid);
  readonly active = new Map<number, number>();
  /** Tickets per contact, in typed arrays (id_groups.ts: a Set per contact was ~94 B a ticket). */
  readonly byContact = new IdGroups();
  readonly byTag = new Map<number, Set<number>>();
  readonly byOportunidade = new Map<number, Set<number>>();
  readonly all = perStatus(() => new SortedTickets());
  readonly groups = perStatus(() => new SortedTickets());
  readonly byUser = perStatus(() => new Map<number, SortedTickets>());
  readonly byQueue = perStatus(() => new Map<number, SortedTickets>());
  /** The report's fields as typed arrays by id (columns.ts). */
  readonly columns = new TicketColumns();
  /** Open and pending tickets counted per (queue, user) pair (the dashboard's live cards). */
  readonly live = new LivePairs();

  /** Counts of list queries since the last change (a read cache; any change clears it). */
  readonly #counts = new Map<string, number>();
  /**
   * Pages of list queries since the last change, the same kind of cache: between two changes
   * every agent polling the same list gets the page already walked (issue #23 §2: the merge
   * of a page 20 across an agent's queues was the worst open-loop tail). Entries are shared,
   * so a caller never changes a page it got.
   */
  readonly #pages = new Map<string, Readonly<{ tickets: readonly Ticket[]; count: number; hasMore: boolean }>>();

  get size(): number {
    return this.byId.size;
  }

  /** The cached count for `key`, computed by `compute` when absent. */
  cachedCount(key: string, compute: () => number): number {
    let count = this.#counts.get(key);
    if (count === undefined) {
      if (this.#counts.size >= 5000) this.#counts.clear();
      count = compute();
      this.#counts.set(key, count);
    }
    return count;
  }

  /** The cached page for `key`, computed by `compute` when absent (see `#pages`). */
  cachedPage<P extends { tickets: readonly Ticket[]; count: number; hasMore: boolean }>(key: string, compute: () => P): P {
    let page = this.#pages.get(key) as P | undefined;
    if (page === undefined) {
      if (this.#pages.size >= 5000) this.#pages.clear();
      page = compute();
      this.#pages.set(key, page);
    }
    return page;
  }

  /** Forgets what the read caches hold: the lists are about to change. */
  #changed(): void {
    this.#counts.clear();
    this.#pages.clear();
  }

  /**
   * Inserts or replaces a ticket. A replaced ticket changes only the entries its change
   * touches: most changes (a message noted) only move it within its lists, and deleting and
   * re-adding it in the big maps made them rehash and a contact's set be built anew on every
   * inbound message (bench/ingest.ts).
   */
  put(ticket: Ticket): void {
    this.#changed();
    const old = this.byId.get(ticket.id);
    if (!old) return this.#link(ticket, true);
    const id = ticket.id;
    this.byId.set(id, ticket);
    this.columns.set(ticket);
    if (old.uuid !== ticket.uuid) {
      this.byUuid.delete(old.uuid, id);
      this.byUuid.set(ticket.uuid, id);
    }
    if (old.contactId !== ticket.contactId) {
      this.byContact.delete(old.contactId, id);
      this.byContact.add(ticket.contactId, id);
    }
    if (old.tagIds !== ticket.tagIds) {
      for (const tag of old.tagIds) if (!ticket.tagIds.includes(tag)) removeFrom(this.byTag, tag, id);
      for (const tag of ticket.tagIds) addTo(this.byTag, tag, id);
    }
    if (old.oportunidadeId !== ticket.oportunidadeId) {
      if (old.oportunidadeId !== null) removeFrom(this.byOportunidade, old.oportunidadeId, id);
      if (ticket.oportunidadeId !== null) addTo(this.byOportunidade, ticket.oportunidadeId, id);
    }
    const oldKey = isActive(old) ? activeKey(old.contactId, old.whatsappId) : undefined;
    const newKey = isActive(ticket) ? activeKey(ticket.contactId, ticket.whatsappId) : undefined;
    if (oldKey !== undefined && oldKey !== newKey && this.active.get(oldKey) === id) this.active.delete(oldKey);
    if (newKey !== undefined) this.active.set(newKey, id);
    for (const list of this.#listsOf(old)) list.remove(old);
    for (const list of this.#listsOf(ticket)) list.insert(ticket);
    if (old.status !== ticket.status || old.queueId !== ticket.queueId || old.userId !== ticket.userId) {
      this.live.count(old, -1);
      this.live.count(ticket, 1);
    }
  }

  /** Removes a ticket; returns the removed record. */
  drop(id: number): Ticket | undefined {
    this.#changed();
    const old = this.byId.get(id);
    if (old) this.#unlink(old);
    return old;
  }

  /**
   * Bulk load: builds the indexes from every ticket at once, and leaves `tickets` sorted
   * oldest first. One sort of all tickets, then each list is filled by appending in that
   * order (so no list is sorted on its own). Into an empty index, from rows read once in
   * memory order (load_rows.ts): at a million tickets, reading the records in recency order
   * was a cache miss per field and made this 7.4 s, now ~2.5 s (issue #23 §3). Records the
   * rows cannot hold exactly, or an index that is not empty, go one by one.
   */
  loadAll(tickets: Ticket[]): void {
    const rows = this.size === 0 ? readRows(tickets) : undefined;
    const order = rows && recencyOrder(rows.id, rows.updated);
    if (rows && order) return this.#loadRows(tickets, rows, order);
    sortOldestFirst(tickets);
    this.byUuid.reserve(tickets.length);
    for (const t of tickets) this.#link(t, false);
  }

  /**
   * `loadAll` into an empty index: the same indexes as #link of each ticket oldest first,
   * built structure by structure from the rows, read once in memory order (load_rows.ts)
   * then put oldest first; a record is read again only for its tags or its opportunity.
   */
  #loadRows(tickets: Ticket[], rows: LoadRows, order: RecencyOrder): void {
    const { at } = order;
    for (let id = 1; id < at.length; id++) if (at[id] !== 0) this.byId.set(id, tickets[at[id] - 1]);
    this.byUuid.reserve(tickets.length);
    for (let i = 0; i < rows.id.length; i++) this.byUuid.setHashed(rows.uuidHash[i], rows.id[i]);
    const ranked = rankRows(rows, order);
    applyOrder(tickets, order);
    this.columns.loadAll(ranked, rows);
    this.byContact.addAll(ranked.contact, ranked.id);
    const { id: ids, flags, user, queue, contact, whatsapp, extra } = ranked;
    for (let k = 0; k < ids.length; k++) {
      const t = tickets[k];
      const id = ids[k];
      if (extra[k] & HAS_TAGS) for (const tag of t.tagIds) addTo(this.byTag, tag, id);
      if (extra[k] & HAS_OPORTUNIDADE) addTo(this.byOportunidade, t.oportunidadeId!, id);
      const status = STATUSES[(flags[k] & 3) - 1];
      const queueKey = queue[k] === NONE ? NO_QUEUE : queue[k];
      if (status !== "closed") {
        this.active.set(activeKey(contact[k], whatsapp[k] === NONE ? null : whatsapp[k]), id);
        this.live.countPair(status, queueKey, user[k] === NONE ? 0 : user[k], 1);
      }
      this.all[status].append(t);
      listIn(this.byQueue[status], queueKey).append(t);
      if (user[k] !== NONE) listIn(this.byUser[status], user[k]).append(t);
      if (flags[k] & GROUP_BIT) this.groups[status].append(t);
    }
  }

  /** The open or pending ticket of a contact on a connection. */
  activeOf(contactId: number, whatsappId: number | null): Ticket | undefined {
    const id = this.active.get(activeKey(contactId, whatsappId));
    return id === undefined ? undefined : this.byId.get(id);
  }

  #link(t: Ticket, sorted: boolean): void {
    this.byId.set(t.id, t);
    this.columns.set(t);
    this.byUuid.set(t.uuid, t.id);
    this.byContact.add(t.contactId, t.id);
    for (const tag of t.tagIds) addTo(this.byTag, tag, t.id);
    if (t.oportunidadeId !== null) addTo(this.byOportunidade, t.oportunidadeId, t.id);
    if (isActive(t)) this.active.set(activeKey(t.contactId, t.whatsappId), t.id);
    this.live.count(t, 1);
    const lists = this.#listsOf(t);
    for (const list of lists) sorted ? list.insert(t) : list.append(t);
  }

  #unlink(t: Ticket): void {
    this.byId.delete(t.id);
    this.columns.delete(t.id);
    this.byUuid.delete(t.uuid, t.id);
    this.byContact.delete(t.contactId, t.id);
    for (const tag of t.tagIds) removeFrom(this.byTag, tag, t.id);
    if (t.oportunidadeId !== null) removeFrom(this.byOportunidade, t.oportunidadeId, t.id);
    const key = activeKey(t.contactId, t.whatsappId);
    if (this.active.get(key) === t.id) this.active.delete(key);
    this.live.count(t, -1);
    for (const list of this.#listsOf(t)) list.remove(t);
  }

  #listsOf(t: Ticket): SortedTickets[] {
    const lists = [
      this.all[t.status],
      listIn(this.byQueue[t.status], t.queueId ?? NO_QUEUE),
    ];
    if (t.userId !== null) lists.push(listIn(this.byUser[t.status], t.userId));
    if (t.isGroup) lists.push(this.groups[t.status]);
    return lists;
  }
}
