/** Contact lists of campaigns (issue #19): what other areas call. */
import type { ActorSystem } from "../_runtime/system.ts";
import type { ContactListItem, ListCounts, NewListItem } from "../../domain/contact_list.ts";
import { checkerActor } from "./checker.ts";
import { itemsActor, type ItemsState } from "./items.ts";
import { log } from "../_runtime/log.ts";

export { checkerActor } from "./checker.ts";
export { itemMissing, itemsActor } from "./items.ts";
export { contactLists } from "./lists.ts";
export { bindContactListPorts, type ContactListPorts } from "./ports.ts";

/** Rows added per turn of the items actor (one atomic: rows + counter < 1000 mutations). */
const ADD_CHUNK = 400;

function items(system: ActorSystem, companyId: number) {
  return system.ref(itemsActor, companyId);
}

async function itemsState(system: ActorSystem, companyId: number): Promise<ItemsState> {
  return await items(system, companyId).peek<ItemsState>();
}

/**
 * The items of list `contactListId` that may receive a campaign (isWhatsappValid not
 * false: unchecked numbers are tried), ascending by id: a stable sending order.
 */
export async function listItems(system: ActorSystem, companyId: number, contactListId: number): Promise<ContactListItem[]> {
  return (await allListItems(system, companyId, contactListId)).filter((i) => i.isWhatsappValid !== false);
}

/** Every item of list `contactListId`, ascending by id. */
export async function allListItems(system: ActorSystem, companyId: number, contactListId: number): Promise<ContactListItem[]> {
  const state = await itemsState(system, companyId);
  const ids = [...(state.byList.get(contactListId)?.values() ?? [])].sort((a, b) => a - b);
  return ids.map((id) => state.items.get(id)!);
}

/** Whether list `contactListId` holds `number` (digits, as its items store them); no item is read. */
export async function listHasNumber(system: ActorSystem, companyId: number, contactListId: number, number: string): Promise<boolean> {
  return (await itemsState(system, companyId)).byList.get(contactListId)?.has(number) ?? false;
}

/** One item of the company, or undefined. */
export async function getListItem(system: ActorSystem, companyId: number, id: number): Promise<ContactListItem | undefined> {
  return (await itemsState(system, companyId)).items.get(id);
}

/** Counts per list id (lists without items are absent), kept by the items actor. */
export async function listCounts(system: ActorSystem, companyId: number): Promise<Map<number, ListCounts>> {
  const counts = (await itemsState(system, companyId)).counts;
  return new Map([...counts].map(([id, c]) => [id, { ...c }]));
}

/** The counts of one list (zeros when it has no items), without walking its items. */
export async function listCountsOf(system: ActorSystem, companyId: number, listId: number): Promise<ListCounts> {
  const c = (await itemsState(system, companyId)).counts.get(listId);
  return c ? { ...c } : { contactsCount: 0, pendingCount: 0, invalidCount: 0 };
}

/**
 * Adds rows to a list in durable chunks (numbers already there count as duplicated), calls
 * `onChunk` after each, and wakes the number checker.
 */
export async function addListItems(
  system: ActorSystem,
  companyId: number,
  listId: number,
  rows: readonly NewListItem[],
  onChunk?: (done: number, total: number) => void,
): Promise<{ created: ContactListItem[]; duplicated: number }> {
  const created: ContactListItem[] = [];
  let duplicated = 0;
  for (let i = 0; i < rows.length; i += ADD_CHUNK) {
    const reply = await items(system, companyId).ask("add", { listId, rows: rows.slice(i, i + ADD_CHUNK) });
    created.push(...reply.created);
    duplicated += reply.duplicated;
    onChunk?.(Math.min(rows.length, i + ADD_CHUNK), rows.length);
  }
  if (created.length > 0) await wakeChecker(system, companyId);
  return { created, duplicated };
}

/** Replaces an item's fields (a changed number is checked again). */
export async function updateListItem(
  system: ActorSystem,
  companyId: number,
  id: number,
  fields: NewListItem & { contactListId: number },
): Promise<ContactListItem> {
  const item = await items(system, companyId).ask("update", { id, fields });
  if (item.isWhatsappValid === null) await wakeChecker(system, companyId);
  return item;
}

export function removeListItem(system: ActorSystem, companyId: number, id: number): Promise<ContactListItem> {
  return items(system, companyId).ask("remove", id);
}

/** Deletes every item of a list, a chunk per atomic. */
export async function removeAllListItems(system: ActorSystem, companyId: number, listId: number): Promise<void> {
  while (await items(system, companyId).ask("removeList", listId) > 0) { /* next chunk */ }
}

/**
 * Makes sure the checker runs when numbers wait for a check. Idempotent; the wake is queued
 * and not awaited, since the checker's mailbox may be busy waiting for a pacing slot. The
 * items are durable first, so a wake lost in a crash is redone by the next list read.
 */
export async function wakeChecker(system: ActorSystem, companyId: number): Promise<void> {
  if ((await itemsState(system, companyId)).pending.size === 0) return;
  const ref = system.ref(checkerActor, companyId);
  ref.ask("wake", undefined).catch((error) => log.warn(`Waking the contact list checker of company ${companyId} failed:`, { error: String(error) }));
}
