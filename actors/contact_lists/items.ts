/**
 * The contacts of a company's contact lists: one actor per company holds every item in
 * memory (the list pages filter and page them; a campaign reads them in id order), so a
 * number added twice to a list cannot race. Each item is one KV key (keys.ts); the ids come
 * from one company counter because `PUT/DELETE /contact-list-items/{id}` name no list.
 *
 * `pending` is the set of items whose number the connection has not checked yet
 * (isWhatsappValid null), in the order they came: the checker (checker.ts) takes them from
 * here one at a time, so the queue is durable as the items themselves.
 */
import { type ContactListItem, type ListCounts, newItems, type NewListItem } from "../../domain/contact_list.ts";
import { AppError, notFound } from "../../domain/errors.ts";
import { companyChannel } from "../../domain/events.ts";
import { phoneProblem } from "../../domain/phone_number.ts";
import { type ActorContext, defineActor } from "../_runtime/actor.ts";
import { itemCounterKey, itemKey, itemPrefix } from "./keys.ts";

export interface ItemsState {
  items: Map<number, ContactListItem>;
  /** listId → number → item id. */
  byList: Map<number, Map<string, number>>;
  pending: Set<number>;
  counter: number;
  /**
   * Counts per list id, kept by `put` and `drop` (memory only: every item is loaded anyway),
   * so a list's counts and a campaign report's valid contacts cost no walk over the items.
   */
  counts: Map<number, ListCounts>;
}

/** Adds (`sign` 1) or removes (-1) `item` from its list's counts. */
function count(state: ItemsState, item: ContactListItem, sign: 1 | -1): void {
  let c = state.counts.get(item.contactListId);
  if (!c) state.counts.set(item.contactListId, c = { contactsCount: 0, pendingCount: 0, invalidCount: 0 });
  c.contactsCount += sign;
  if (item.isWhatsappValid === null) c.pendingCount += sign;
  if (item.isWhatsappValid === false) c.invalidCount += sign;
  if (c.contactsCount === 0) state.counts.delete(item.contactListId);
}

/** A bulk add emits one event per item up to this many, else one `reload` for the list. */
const LIVE_ITEMS_MAX = 100;
/** Items deleted per turn when a whole list goes (one turn is one atomic: < 1000 mutations). */
export const REMOVE_CHUNK = 400;

/** The 404 of an item that does not exist in the company. */
export const itemMissing = (id: number | string) => notFound("ERR_NOT_FOUND", `Contact list item ${id} does not exist`);

function numbersOf(state: ItemsState, listId: number): Map<string, number> {
  let numbers = state.byList.get(listId);
  if (!numbers) state.byList.set(listId, numbers = new Map());
  return numbers;
}

function emitItem(ctx: ActorContext<ItemsState>, action: "create" | "update" | "delete", item: ContactListItem) {
  ctx.emit({
    companyId: item.companyId,
    channel: companyChannel(item.companyId, "ContactListItem"),
    data: action === "delete" ? { action, id: item.id, contactListId: item.contactListId } : { action, record: item },
    scope: { kind: "company" },
  });
}

function put(ctx: ActorContext<ItemsState>, item: ContactListItem, old?: ContactListItem) {
  const state = ctx.state;
  if (old && old.number !== item.number) numbersOf(state, old.contactListId).delete(old.number);
  const before = state.items.get(item.id);
  if (before) count(state, before, -1);
  count(state, item, 1);
  state.items.set(item.id, item);
  numbersOf(state, item.contactListId).set(item.number, item.id);
  if (item.isWhatsappValid === null) state.pending.add(item.id);
  else state.pending.delete(item.id);
  ctx.set(itemKey(item.companyId, item.contactListId, item.id), item);
}

function drop(ctx: ActorContext<ItemsState>, item: ContactListItem) {
  const state = ctx.state;
  if (state.items.has(item.id)) count(state, state.items.get(item.id)!, -1);
  state.items.delete(item.id);
  state.pending.delete(item.id);
  const numbers = state.byList.get(item.contactListId);
  numbers?.delete(item.number);
  if (numbers?.size === 0) state.byList.delete(item.contactListId);
  ctx.delete(itemKey(item.companyId, item.contactListId, item.id));
}

export const itemsActor = defineActor({
  kind: "contact_list_items",
  async load(kv, id): Promise<ItemsState> {
    const companyId = Number(id);
    const state: ItemsState = { items: new Map(), byList: new Map(), pending: new Set(), counter: 0, counts: new Map() };
    const [entries, counter] = await Promise.all([
      Array.fromAsync(kv.list<ContactListItem>({ prefix: itemPrefix(companyId) })),
      kv.get<number>(itemCounterKey(companyId)),
    ]);
    for (const { value: item } of entries) {
      state.items.set(item.id, item);
      count(state, item, 1);
      numbersOf(state, item.contactListId).set(item.number, item.id);
      if (item.isWhatsappValid === null) state.pending.add(item.id);
    }
    state.counter = Math.max(counter.value ?? 0, 0, ...state.items.keys());
    return state;
  },
  handlers: {
    /** Adds rows to list `listId`; numbers already in the list are counted as duplicated. */
    add(ctx, arg: { listId: number; rows: NewListItem[] }): { created: ContactListItem[]; duplicated: number } {
      const companyId = Number(ctx.id);
      const fresh = newItems(new Set(numbersOf(ctx.state, arg.listId).keys()), arg.rows);
      const created = fresh.map((row): ContactListItem => ({
        id: ++ctx.state.counter,
        companyId,
        contactListId: arg.listId,
        name: row.name,
        number: row.number,
        email: row.email,
        // A number no WhatsApp account can have is invalid at once (#41), not sent to the check.
        isWhatsappValid: phoneProblem(row.number) ? false : null,
        createdAt: ctx.now,
        updatedAt: ctx.now,
      }));
      for (const item of created) put(ctx, item);
      if (created.length > 0) ctx.set(itemCounterKey(companyId), ctx.state.counter);
      if (created.length <= LIVE_ITEMS_MAX) for (const item of created) emitItem(ctx, "create", item);
      else {
        ctx.emit({
          companyId,
          channel: companyChannel(companyId, "ContactListItem"),
          data: { action: "reload", contactListId: arg.listId },
          scope: { kind: "company" },
        });
      }
      return { created, duplicated: arg.rows.length - created.length };
    },

    /** Replaces an item's fields; a changed number is checked again. */
    update(ctx, arg: { id: number; fields: NewListItem & { contactListId: number } }): ContactListItem {
      const old = ctx.state.items.get(arg.id);
      if (!old) throw itemMissing(arg.id);
      const other = numbersOf(ctx.state, arg.fields.contactListId).get(arg.fields.number);
      if (other !== undefined && other !== arg.id) {
        throw new AppError("ERR_DUPLICATED_CONTACT", {
          status: 409,
          message: `Number ${arg.fields.number} is already in contact list ${arg.fields.contactListId}`,
          fields: { number: "ERR_DUPLICATED_CONTACT" },
        });
      }
      const recheck = old.number !== arg.fields.number;
      const next: ContactListItem = {
        ...old,
        ...arg.fields,
        isWhatsappValid: recheck ? (phoneProblem(arg.fields.number) ? false : null) : old.isWhatsappValid,
        updatedAt: ctx.now,
      };
      if (old.contactListId !== next.contactListId) {
        drop(ctx, old);
        emitItem(ctx, "delete", old);
      }
      put(ctx, next, old.contactListId === next.contactListId ? old : undefined);
      emitItem(ctx, "update", next);
      return next;
    },

    remove(ctx, id: number): ContactListItem {
      const old = ctx.state.items.get(id);
      if (!old) throw itemMissing(id);
      drop(ctx, old);
      emitItem(ctx, "delete", old);
      return old;
    },

    /** Deletes up to REMOVE_CHUNK items of a list; replies how many are left. */
    removeList(ctx, listId: number): number {
      const ids = [...(ctx.state.byList.get(listId)?.values() ?? [])];
      for (const id of ids.slice(0, REMOVE_CHUNK)) drop(ctx, ctx.state.items.get(id)!);
      return Math.max(0, ids.length - REMOVE_CHUNK);
    },

    /** The checker's answer for item `id`, ignored when the number changed meanwhile. */
    setValidity(ctx, arg: { id: number; number: string; valid: boolean }): void {
      const old = ctx.state.items.get(arg.id);
      if (!old || old.number !== arg.number || old.isWhatsappValid === arg.valid) return;
      const next = { ...old, isWhatsappValid: arg.valid, updatedAt: ctx.now };
      put(ctx, next, old);
      emitItem(ctx, "update", next);
    },
  },
});
