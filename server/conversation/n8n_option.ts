/**
 * A bot option of type n8n (spec 001 §3: its message holds the integration URL): each turn of
 * the customer is posted to the workflow (server/integrations/n8n.ts) and its answer is the
 * bot's reply. A failed turn never leaves the ticket stuck: the customer gets the fallback
 * text, the agent a note saying why, and the bot steps aside so the ticket waits for an agent.
 */
import { conversationOf } from "../../actors/conversations/mod.ts";
import { recordBotNote } from "../../actors/ticket_tracking/mod.ts";
import { getTicket } from "../../actors/tickets/mod.ts";
import { INTEGRATION_FALLBACK_TEXT } from "../../domain/typebot.ts";
import type { AppDeps } from "../deps.ts";
import { askN8n } from "../integrations/n8n.ts";
import { sendBot } from "../usecases/bot_send.ts";

/** Asks the option's workflow about `text` and sends its answer (or the fallback). */
export async function askIntegration(
  deps: AppDeps,
  companyId: number,
  ticketId: number,
  turn: { url: string; text: string },
): Promise<void> {
  const answer = await askN8n(deps, { companyId, ticketId, url: turn.url, text: turn.text });
  if (answer.ok) {
    if (answer.text.trim()) await sendBot(deps, companyId, ticketId, { text: answer.text });
    return;
  }
  await conversationOf(deps.system, companyId, ticketId).ask("stopBot", undefined);
  await sendBot(deps, companyId, ticketId, { text: INTEGRATION_FALLBACK_TEXT });
  const ticket = await getTicket(deps.system, companyId, ticketId);
  if (ticket) await recordBotNote(deps.system, ticket, "integrationFailed", `n8n (${answer.error})`);
}
