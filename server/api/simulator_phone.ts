/**
 * What the simulated customer's phone shows (domain/phone_view.ts), read from what the company
 * stored: a customer's chat is the messages of their tickets on the simulator's connection
 * that reached the phone (the company's sent ones; not those still queued or failed), the
 * bot's menus taken from the list the phone received (the simulator's outbox) or from the
 * text's numbered lines. So the phone shows the customer's whole history with the company,
 * the demo's thirty days included, and after a restart too.
 */
import { findContactByNumber, getContact } from "../../actors/contacts/mod.ts";
import { pageOfMessages } from "../../actors/messages/mod.ts";
import { messageViews } from "../../actors/messages/view.ts";
import { deskState, ticketsByContact } from "../../actors/tickets/mod.ts";
import { listPreview, type Message } from "../../domain/message.ts";
import { menuOf, ownTicks, type PhoneChat, type PhoneMessage, type PhoneThread } from "../../domain/phone_view.ts";
import type { Ticket } from "../../domain/ticket.ts";
import { digits } from "../channels/types.ts";
import type { SimulatorAdapter } from "../channels/simulator.ts";
import type { AppDeps } from "../deps.ts";

/** Messages a chat shows at most (the newest). */
const THREAD_LIMIT = 150;
/** Chats the list shows at most (the latest). */
const CHATS_LIMIT = 200;

/** Whether the phone ever got `m`: the customer's own, or the company's once the channel took it. */
const reachedPhone = (m: Message) => !m.fromMe || (m.providerId !== null && m.failed === null);

/** The phone's chats on connection `whatsappId`: customers who talked with it, then its address book. */
export async function phoneChats(deps: AppDeps, companyId: number, whatsappId: number, phone: SimulatorAdapter): Promise<PhoneChat[]> {
  const { index } = await deskState(deps.system, companyId);
  const latest = new Map<number, Ticket>();
  for (const t of index.byId.values()) {
    if (t.whatsappId !== whatsappId || t.isGroup) continue;
    const seen = latest.get(t.contactId);
    if (!seen || t.updatedAt > seen.updatedAt) latest.set(t.contactId, t);
  }
  const newest = [...latest.values()].sort((a, b) => b.updatedAt - a.updatedAt).slice(0, CHATS_LIMIT);
  const chats: PhoneChat[] = [];
  for (const t of newest) {
    const contact = await getContact(deps.system, companyId, t.contactId);
    if (!contact) continue;
    chats.push({
      number: contact.number,
      name: contact.name,
      lastMessage: listPreview(t.lastMessage),
      lastAt: new Date(t.updatedAt).toISOString(),
      // The company's last words wait on the phone until it opens the chat.
      unread: t.lastFromMe === true && t.status !== "closed" ? 1 : 0,
    });
  }
  const known = new Set(chats.map((c) => c.number));
  for (const [number, name] of [...phone.chats, ...phone.phoneBook]) {
    if (known.has(number)) continue;
    known.add(number);
    chats.push({ number, name: name || phone.phoneBook.get(number) || "", lastMessage: "", lastAt: null, unread: 0 });
  }
  return chats;
}

/** The chat with `number` on connection `whatsappId`, oldest first; empty for a new customer. */
export async function phoneThread(
  deps: AppDeps,
  companyId: number,
  whatsappId: number,
  number: string,
  phone: SimulatorAdapter,
): Promise<PhoneThread> {
  const wanted = digits(number);
  const contact = await findContactByNumber(deps.system, companyId, wanted);
  const name = contact?.name || phone.chats.get(wanted) || phone.phoneBook.get(wanted) || "";
  if (!contact) return { number: wanted, name, messages: [] };
  const tickets = (await ticketsByContact(deps.system, companyId, contact.id)).filter((t) => t.whatsappId === whatsappId);
  // Newest ticket first, until the thread is full.
  const pages: Array<{ ticket: Ticket; messages: Message[] }> = [];
  let total = 0;
  for (const ticket of tickets) {
    if (total >= THREAD_LIMIT) break;
    const { messages } = await pageOfMessages(deps.system, companyId, ticket.id, 1, THREAD_LIMIT - total);
    const shown = messages.filter(reachedPhone);
    pages.unshift({ ticket, messages: shown });
    total += shown.length;
  }
  const lists = new Map(phone.outbox.flatMap((e) => (e.list ? [[e.id, e.list] as const] : [])));
  const out: PhoneMessage[] = [];
  for (const { ticket, messages } of pages) {
    const views = await messageViews(deps, companyId, messages, { id: contact.id, name: contact.name });
    let fromEnd = messages.filter((m) => !m.fromMe).length;
    for (const view of views) {
      const mine = !view.fromMe;
      if (mine) fromEnd--;
      out.push({
        ...view,
        mine,
        ack: mine ? ownTicks(fromEnd, ticket.unreadMessages) : view.ack,
        menu: mine || view.isDeleted ? null : menuOf(view.body, view.providerId ? lists.get(view.providerId) : undefined),
      });
    }
  }
  return { number: contact.number, name, messages: out };
}

/** The provider ids of the company's messages in the chat that the phone has not read yet. */
export function unreadByPhone(thread: PhoneThread): string[] {
  return thread.messages.flatMap((m) => (!m.mine && m.ack < 4 && m.providerId ? [m.providerId] : []));
}
