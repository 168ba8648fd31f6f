/**
 * The search tab's matches (GET /tickets?searchParam, spec 000 §7): tickets whose contact
 * name or number contains the term (the contacts area's search texts, narrowed by its trigram filter), whose id
 * is the term, or whose messages contain it (the messages area's inverted index, which may
 * still be building after a start: then the matches are partial, see search_index.ts; the
 * same while a large company's contact names are indexed, see contacts/naming.ts).
 */
import type { ActorSystem } from "../../actors/_runtime/system.ts";
import { contactIdsMatching } from "../../actors/contacts/mod.ts";
import type { TicketIndex } from "../../actors/tickets/index.ts";
import { searchTicketIds } from "../../actors/messages/mod.ts";

/** Matching ticket ids; `partial` when the message index or the contacts' name index was not built yet. */
export interface TicketMatches {
  ids: Set<number>;
  partial: boolean;
}

/**
 * Tickets of the company that match `term` by contact, id or message text. A message or
 * contact name index still building is waited for until `waitMs` after its build began (each
 * area's default when omitted).
 */
export async function searchTickets(
  system: ActorSystem,
  companyId: number,
  index: TicketIndex,
  term: string,
  waitMs?: number,
): Promise<TicketMatches> {
  const [byContact, byMessage] = await Promise.all([
    contactIdsMatching(system, companyId, term, waitMs),
    searchTicketIds(system, companyId, term, waitMs),
  ]);
  const ids = byMessage.ids;
  for (const contactId of byContact.ids) {
    for (const id of index.byContact.get(contactId) ?? []) ids.add(id);
  }
  const asId = Number(term.trim());
  if (Number.isSafeInteger(asId) && index.byId.has(asId)) ids.add(asId);
  return { ids, partial: byMessage.partial || byContact.partial };
}
