/**
 * n8n (issue #17): a conversation turn is POSTed to a workflow's webhook URL and the
 * workflow's answer is the bot's reply. Called by the bot tree (option type n8n, whose message
 * holds the URL) and by queues whose `typeChatbot` is n8n; the URL defaults to the company's
 * `urlN8N` setting.
 *
 * The body (our own; n8n reads any JSON): `{ event: "message", companyId, text, ticket: { id,
 * uuid, status, queueId, whatsappId }, contact: { id, name, number, email }, messages: [{ body,
 * fromMe, mediaType, createdAt }] }`, the ticket's last messages oldest first.
 */
import { getContact } from "../../actors/contacts/mod.ts";
import { pageOfMessages } from "../../actors/messages/mod.ts";
import { companySettings } from "../../actors/platform/lookup.ts";
import { getTicket } from "../../actors/tickets/mod.ts";
import { n8nAnswerText } from "../../domain/n8n.ts";
import type { AppDeps } from "../deps.ts";
import { callIntegration } from "./http.ts";

/** How many of the ticket's last messages go with a turn. */
export const N8N_CONTEXT_MESSAGES = 20;

/** One turn to ask n8n about. */
export interface N8nAsk {
  companyId: number;
  ticketId: number;
  /** The webhook; defaults to the company's `urlN8N` setting. */
  url?: string;
  /** What the customer just wrote. */
  text: string;
}

/** n8n's reply text, or why there is none (a reason for the agent, never thrown). */
export type N8nAnswer = { ok: true; text: string } | { ok: false; error: string };

/** Posts the conversation to the n8n webhook and reads its reply; see the module doc. */
export async function askN8n(deps: AppDeps, ask: N8nAsk): Promise<N8nAnswer> {
  try {
    return await askOnce(deps, ask);
  } catch (error) {
    // Reads of our own store failing here must not break the caller's conversation either.
    return { ok: false, error: `n8n turn failed: ${error instanceof Error ? error.message : String(error)}` };
  }
}

async function askOnce(deps: AppDeps, ask: N8nAsk): Promise<N8nAnswer> {
  const { system } = deps;
  const url = (ask.url ?? (await companySettings(system, ask.companyId)).urlN8N ?? "").trim();
  if (!/^https?:\/\//i.test(url)) return { ok: false, error: "n8n URL is not configured" };
  const ticket = await getTicket(system, ask.companyId, ask.ticketId);
  if (!ticket) return { ok: false, error: `Ticket ${ask.ticketId} does not exist` };
  const [contact, page] = await Promise.all([
    getContact(system, ask.companyId, ticket.contactId),
    pageOfMessages(system, ask.companyId, ticket.id, 1, N8N_CONTEXT_MESSAGES),
  ]);
  const result = await callIntegration("n8n", url, {
    json: {
      event: "message",
      companyId: ask.companyId,
      text: ask.text,
      ticket: {
        id: ticket.id,
        uuid: ticket.uuid,
        status: ticket.status,
        queueId: ticket.queueId,
        whatsappId: ticket.whatsappId,
      },
      contact: contact
        ? { id: contact.id, name: contact.name, number: contact.number, email: contact.email }
        : null,
      messages: page.messages.map((m) => ({
        body: m.body,
        fromMe: m.fromMe,
        mediaType: m.mediaType,
        createdAt: new Date(m.createdAt).toISOString(),
      })),
    },
    timeoutMs: deps.config.integrationTimeoutMs,
  });
  if (!result.ok) return { ok: false, error: result.error };
  const text = n8nAnswerText(result.body);
  return text ? { ok: true, text } : { ok: false, error: "n8n answered no reply text" };
}
