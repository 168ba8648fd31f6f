/**
 * The sizes of the in-memory read models (issue #40), read at scrape time: the ticket desks'
 * tickets, the contacts, the message-search pairs and the provider-id indexes. Only what is
 * loaded counts (an idle company's desk that was passivated holds no memory), and nothing is
 * activated or marked used by the reading (ActorSystem.liveStates).
 */
import type { ActorSystem } from "../../actors/_runtime/system.ts";
import { contactsActor } from "../../actors/contacts/mod.ts";
import type { ContactsState } from "../../actors/contacts/state.ts";
import { messageSearchPairs, providerIndex } from "../../actors/messages/mod.ts";
import { type DeskState, ticketDesk } from "../../actors/tickets/mod.ts";

/** One model's size: over every held company, and of the largest one (when kept per company). */
export interface ModelSize {
  total: number;
  largest?: number;
}

/** The read models' sizes over the companies in `held`. */
export function readModelSizes(system: ActorSystem, held: readonly number[]): Record<string, ModelSize> {
  const companies = new Set(held);
  const tickets = { total: 0, largest: 0 };
  for (const [id, desk] of system.liveStates<DeskState>(ticketDesk)) {
    if (companies.has(Number(id))) add(tickets, desk.index.size);
  }
  const contacts = { total: 0, largest: 0 };
  for (const [id, state] of system.liveStates<ContactsState>(contactsActor)) {
    if (companies.has(Number(id))) add(contacts, state.contacts.size);
  }
  const providerIds = { total: 0, largest: 0 };
  const index = providerIndex(system);
  for (const companyId of held) add(providerIds, index.size(companyId).ids);
  // The search indexes are bounded together (search_index.ts MAX_PAIRS), not per company.
  const pairs = messageSearchPairs(system);
  return { tickets, contacts, message_search_pairs: { total: pairs }, provider_ids: providerIds };
}

function add(size: { total: number; largest: number }, n: number): void {
  size.total += n;
  if (n > size.largest) size.largest = n;
}
