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
import { AppError } from "../../domain/errors.ts";
import { n8nAnswerText, n8nBaseUrl } from "../../domain/n8n.ts";
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
    allowPrivate: deps.config.integrationAllowPrivate,
  });
  if (!result.ok) return { ok: false, error: result.error };
  const text = n8nAnswerText(result.body);
  return text ? { ok: true, text } : { ok: false, error: "n8n answered no reply text" };
}

/** Most pages of workflows read (n8n pages by cursor, 250 a page). */
const MAX_WORKFLOW_PAGES = 8;

/** A workflow as the queue editor offers it: its webhook URLs are what a queue or option posts to. */
export interface N8nWorkflow {
  id: string;
  name: string;
  active: boolean;
  webhooks: string[];
}

/**
 * GET /n8n/listworkFlow: the workflows of the company's n8n (`urlN8N`'s instance, key
 * `apiKeyN8N`) via n8n's public API, each with the production URLs of its Webhook nodes.
 */
export async function listN8nWorkflows(deps: AppDeps, companyId: number): Promise<{ workflows: N8nWorkflow[] }> {
  const s = await companySettings(deps.system, companyId);
  const base = n8nBaseUrl(s.urlN8N ?? "");
  if (!base) throw notConfigured("urlN8N");
  const key = (s.apiKeyN8N ?? "").trim();
  if (!key) throw notConfigured("apiKeyN8N");
  const workflows: N8nWorkflow[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < MAX_WORKFLOW_PAGES; page++) {
    const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : "";
    const result = await callIntegration("n8n", `${base}/api/v1/workflows?limit=250${query}`, {
      headers: { "X-N8N-API-KEY": key },
      timeoutMs: deps.config.integrationTimeoutMs,
      allowPrivate: deps.config.integrationAllowPrivate,
    });
    if (!result.ok) throw new AppError("ERR_INTEGRATION_FAILED", { status: 502, message: result.error });
    const body = result.body as { data?: unknown; nextCursor?: unknown } | null;
    if (!Array.isArray(body?.data)) {
      throw new AppError("ERR_INTEGRATION_FAILED", { status: 502, message: "n8n answered an unexpected list" });
    }
    for (const item of body.data) {
      const w = item as { id?: unknown; name?: unknown; active?: unknown; nodes?: unknown };
      if (typeof w.id !== "string" && typeof w.id !== "number") continue;
      workflows.push({
        id: String(w.id),
        name: typeof w.name === "string" ? w.name : String(w.id),
        active: w.active === true,
        webhooks: webhookUrls(base, w.nodes),
      });
    }
    cursor = typeof body.nextCursor === "string" && body.nextCursor ? body.nextCursor : null;
    if (!cursor) break;
  }
  return { workflows };
}

/** The production URLs of a workflow's Webhook nodes: `{base}/webhook/{path}`. */
function webhookUrls(base: string, nodes: unknown): string[] {
  if (!Array.isArray(nodes)) return [];
  return nodes
    .filter((n) => (n as { type?: unknown })?.type === "n8n-nodes-base.webhook")
    .map((n) => (n as { parameters?: { path?: unknown } }).parameters?.path)
    .filter((path): path is string => typeof path === "string" && path.trim() !== "")
    .map((path) => `${base}/webhook/${path.trim().replace(/^\/+/, "")}`);
}

function notConfigured(key: string): AppError {
  return new AppError("ERR_INTEGRATION_NOT_CONFIGURED", {
    status: 400,
    message: `n8n is not configured: setting ${key} is empty`,
  });
}
