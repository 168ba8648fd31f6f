/**
 * How the bot speaks (the conversation engine, calls, the n8n option, the place in line): a
 * bot text (with the menu as a WhatsApp list, or an option's media) stored and sent through the
 * ticket's outbound path, which fills its variables (`{{nome}}`…, domain/message_template.ts)
 * as for every customer text.
 */
import { getContact } from "../../actors/contacts/mod.ts";
import { sendOutgoing } from "../../actors/messages/mod.ts";
import { getTicket } from "../../actors/tickets/mod.ts";
import type { MenuList } from "../../domain/bot_walker.ts";
import type { AppDeps } from "../deps.ts";
import type { EffectStep } from "../../domain/ticket_effects.ts";
import { mediaCopy } from "./message_send.ts";
import { log } from "../../actors/_runtime/log.ts";

/** What the bot sends: text, and optionally a list or a stored media file of the company. */
export interface BotSend {
  text: string;
  list?: MenuList;
  media?: { path: string; name: string };
}

/**
 * Sends `what` in ticket `ticketId` (nothing when the text and media are empty); resolves
 * whether it did. `effect`: the send is a step of a transition's effects.
 */
export async function sendBot(
  deps: AppDeps,
  companyId: number,
  ticketId: number,
  what: BotSend,
  effect?: EffectStep,
): Promise<boolean> {
  const ticket = await getTicket(deps.system, companyId, ticketId);
  if (!ticket) return false;
  const contact = await getContact(deps.system, companyId, ticket.contactId);
  const body = what.text;
  if (!body.trim() && !what.media) return false;
  // The message owns a copy: deleting the ticket's media must never remove the option's.
  const media = what.media
    ? await mediaCopy(deps, companyId, what.media.path, what.media.name).catch((error) => {
      log.error(`The media ${what.media!.path} of a bot option could not be copied`, { error });
      return null;
    })
    : null;
  await sendOutgoing(deps, ticket, {
    body,
    ...media,
    ...(what.list ? { list: what.list } : {}),
  }, contact, effect);
  return true;
}
