/**
 * Start-up wiring: every actor kind is registered before the first queue delivery (so timers
 * armed before a restart find their actor), and the read models are rebuilt from KV before
 * `/ready` answers 200 (server/readiness.ts says which count). Each area adds its kinds and
 * warm-ups here.
 */
import type { ActorSystem } from "../actors/_runtime/system.ts";
import { helps } from "../actors/helps/collection.ts";
import { contactsActor, nameContacts, warmContacts } from "../actors/contacts/mod.ts";
import { queueOptions } from "../actors/queue_options/collection.ts";
import { quickMessages } from "../actors/quick_messages/collection.ts";
import { ticketNotes } from "../actors/notes/collection.ts";
import { oportunidades } from "../actors/oportunidades/collection.ts";
import { companies, PLATFORM, plans, settings, users } from "../actors/platform/collections.ts";
import { queues } from "../actors/queues/collection.ts";
import { tags } from "../actors/tags/collection.ts";
import { whatsapps } from "../actors/whatsapps/collection.ts";
import { sessionActor } from "../actors/sessions/mod.ts";
import { ticketDesk, warmTickets } from "../actors/tickets/mod.ts";
import { bindMessages, messagesActor, providerIndex, warmMessageSearch } from "../actors/messages/mod.ts";
import { trackingActor } from "../actors/ticket_tracking/mod.ts";
import { conversationActor } from "../actors/conversations/mod.ts";
import { botSessionActor } from "../actors/bot_sessions/mod.ts";
import { announcementReads, announcements } from "../actors/announcements/collection.ts";
import { schedulesActor } from "../actors/schedules/mod.ts";
import { checkerActor, contactLists, itemsActor } from "../actors/contact_lists/mod.ts";
import { campaignsActor } from "../actors/campaigns/mod.ts";
import { ratingAnswers, ratings, surveysActor } from "../actors/ratings/mod.ts";
import { chatActor, chatIdsActor } from "../actors/chats/mod.ts";
import { aiSettings } from "../actors/ai_settings/mod.ts";
import { billingRegistry, invoicesActor, syncInvoices } from "../actors/invoices/mod.ts";
import type { AppDeps } from "./deps.ts";

export function registerActors(system: ActorSystem): void {
  system.register(companies.actor, plans.actor, users.actor, settings.actor, queues.actor);
  system.register(tags.actor, whatsapps.actor);
  system.register(helps.actor);
  system.register(contactsActor);
  system.register(messagesActor);
  system.register(sessionActor);
  system.register(queueOptions.actor);
  system.register(quickMessages.actor);
  system.register(ticketNotes.actor, oportunidades.actor);
  system.register(ticketDesk);
  system.register(announcements.actor, announcementReads.actor);
  system.register(trackingActor);
  system.register(ratings.actor, ratingAnswers.actor, surveysActor);
  system.register(conversationActor);
  system.register(botSessionActor);
  system.register(schedulesActor);
  system.register(contactLists.actor, itemsActor, checkerActor);
  system.register(campaignsActor);
  system.register(chatActor, chatIdsActor);
  system.register(aiSettings.actor);
  system.register(invoicesActor, billingRegistry);
}

/**
 * Loads what every request needs in memory: the platform collections, then the read models of
 * `companyIds` (default: every company, a process alone; a process of several warms each
 * company as it takes it, server/cluster/).
 */
export async function warmUp(deps: AppDeps, companyIds?: readonly number[]): Promise<void> {
  const { system } = deps;
  bindMessages(deps);
  await Promise.all([
    companies.in(system, PLATFORM).list(),
    plans.in(system, PLATFORM).list(),
    users.in(system, PLATFORM).list(),
  ]);
  const ids = companyIds ?? (await companies.in(system, PLATFORM).list()).map((c) => c.id);
  await warmCompanies(system, ids);
}

/** The read models of `companyIds`, loaded from KV (a start, or a process taking them over). */
export async function warmCompanies(system: ActorSystem, companyIds: readonly number[]): Promise<void> {
  // Ticket desks and contact lists (the inbox read models) before /ready, side by side: each
  // load waits on KV's reads part of the time, which the other fills.
  await Promise.all(companyIds.flatMap((id) => [warmTickets(system, id), warmContacts(system, id)]));
  // Invoice timers (#21): a company written before its invoices actor existed (the demo seed,
  // an older store) gets its timer armed, or its due invoice issued; a no-op otherwise.
  await Promise.all(companyIds.map((id) => syncInvoices(system, id)));
  // Large companies' contact name indexes too (contacts/naming.ts), once the loads are done.
  await Promise.all(companyIds.map((id) => nameContacts(system, id)));
  // Provider indexes build in the background, not before /ready: the channels' first
  // messages after a restart (the offline ones among them) wait only for their company's scan.
  for (const id of companyIds) providerIndex(system).warm(id);
  // Message-search indexes too, one company at a time in slices (search_index.ts): a search
  // meanwhile answers at once from what is indexed so far and says it is partial.
  warmMessageSearch(system, companyIds);
}
