/**
 * Typebot (issue #17): the company's Typebot settings (`urlTypebot` the builder's API,
 * `urlBotTypebot` the viewer that runs published bots, defaulting to the builder's address,
 * `tokenTypebot` a bearer token of the builder), the lists the queue editor offers, and the
 * turn of a ticket in a queue whose `typeChatbot` is typebot (domain/typebot.ts,
 * actors/bot_sessions).
 *
 * The queue's `typebotId` is the id the list shows; startChat wants the bot's public id, read
 * from GET /api/v1/typebots/{id} when the builder is reachable with the token (an id typed by
 * hand that is already a public id works too).
 */
import type { BotSession, BotTurnInput } from "../../actors/bot_sessions/mod.ts";
import { getContact } from "../../actors/contacts/mod.ts";
import { companySettings } from "../../actors/platform/lookup.ts";
import { getTicket } from "../../actors/tickets/mod.ts";
import { AppError } from "../../domain/errors.ts";
import { TypebotReply, typebotAnswer, typebotTurn } from "../../domain/typebot.ts";
import type { AppDeps } from "../deps.ts";
import { callIntegration } from "./http.ts";

/** The Typebot settings of a company. */
export interface TypebotConfig {
  apiUrl: string;
  botUrl: string;
  token: string;
}

const trimSlash = (url: string) => url.trim().replace(/\/+$/, "");

/** The company's Typebot settings (addresses without a trailing slash). */
export async function typebotConfig(deps: AppDeps, companyId: number): Promise<TypebotConfig> {
  const s = await companySettings(deps.system, companyId);
  const apiUrl = trimSlash(s.urlTypebot ?? "");
  return { apiUrl, botUrl: trimSlash(s.urlBotTypebot ?? "") || apiUrl, token: (s.tokenTypebot ?? "").trim() };
}

function notConfigured(missing: string): AppError {
  return new AppError("ERR_INTEGRATION_NOT_CONFIGURED", {
    status: 400,
    message: `Typebot is not configured: setting ${missing} is empty`,
  });
}

/** A builder API read for the editor's lists; its failure is a 502 naming the reason. */
async function builderGet(deps: AppDeps, companyId: number, path: string): Promise<unknown> {
  const config = await typebotConfig(deps, companyId);
  if (!config.apiUrl) throw notConfigured("urlTypebot");
  if (!config.token) throw notConfigured("tokenTypebot");
  const result = await callIntegration("Typebot", `${config.apiUrl}${path}`, {
    headers: { authorization: `Bearer ${config.token}` },
    timeoutMs: deps.config.integrationTimeoutMs,
    allowPrivate: deps.config.integrationAllowPrivate,
  });
  if (!result.ok) throw new AppError("ERR_INTEGRATION_FAILED", { status: 502, message: result.error });
  return result.body;
}

/** An item of a list: `{ id, name }` of anything with a string id (others are skipped). */
function named(list: unknown, extra: (item: Record<string, unknown>) => Record<string, unknown> = () => ({})) {
  if (!Array.isArray(list)) {
    throw new AppError("ERR_INTEGRATION_FAILED", { status: 502, message: "Typebot answered an unexpected list" });
  }
  return list
    .filter((item): item is Record<string, unknown> => !!item && typeof item === "object" && typeof item.id === "string")
    .map((item) => ({ id: item.id as string, name: typeof item.name === "string" ? item.name : item.id as string, ...extra(item) }));
}

/** GET /typebot/listworkspaces: `{ workspaces: [{ id, name }] }`. */
export async function listTypebotWorkspaces(deps: AppDeps, companyId: number) {
  const body = await builderGet(deps, companyId, "/api/v1/workspaces") as { workspaces?: unknown } | null;
  return { workspaces: named(body?.workspaces) };
}

/** GET /typebot/listtypebots?workspaceId: `{ typebots: [{ id, name, published }] }`. */
export async function listTypebots(deps: AppDeps, companyId: number, workspaceId: string) {
  const path = `/api/v1/typebots?workspaceId=${encodeURIComponent(workspaceId)}`;
  const body = await builderGet(deps, companyId, path) as { typebots?: unknown } | null;
  return { typebots: named(body?.typebots, (item) => ({ published: typeof item.publishedTypebotId === "string" })) };
}

/** The public id startChat wants for the queue's `typebotId` (see the module doc). */
async function publicIdOf(deps: AppDeps, config: TypebotConfig, typebotId: string): Promise<string> {
  if (!config.apiUrl || !config.token) return typebotId;
  const result = await callIntegration("Typebot", `${config.apiUrl}/api/v1/typebots/${encodeURIComponent(typebotId)}`, {
    headers: { authorization: `Bearer ${config.token}` },
    timeoutMs: deps.config.integrationTimeoutMs,
    allowPrivate: deps.config.integrationAllowPrivate,
  });
  const typebot = result.ok ? (result.body as { typebot?: { publicId?: unknown } } | null)?.typebot : undefined;
  return typeof typebot?.publicId === "string" && typebot.publicId ? typebot.publicId : typebotId;
}

/** What one call to a bot service gave: texts to send, whether the flow ended, or why it failed. */
export interface ServiceOutcome {
  session: BotSession;
  texts: string[];
  ended: boolean;
  /** Null on success; else the reason, for the agents' note. */
  error: string | null;
}

/**
 * One Typebot call for a turn: continueChat with the customer's reply when a session runs,
 * else startChat (the customer's message only triggered it: a flow opens with its own bubbles).
 */
export async function typebotCall(
  deps: AppDeps,
  running: BotSession | null,
  input: BotTurnInput,
  typebotId: string,
): Promise<ServiceOutcome> {
  const config = await typebotConfig(deps, input.companyId);
  const base: BotSession = running ?? {
    v: 1,
    service: "typebot",
    queueId: input.queueId,
    status: "running",
    sessionId: null,
    choices: [],
    updatedAt: deps.system.now(),
  };
  const failed = (error: string): ServiceOutcome => ({ session: base, texts: [], ended: true, error });
  if (!config.botUrl) return failed("setting urlTypebot is empty");
  const call = running?.sessionId
    ? await callIntegration("Typebot", `${config.botUrl}/api/v1/sessions/${encodeURIComponent(running.sessionId)}/continueChat`, {
      json: { message: typebotAnswer(input.text ?? "", running.choices), textBubbleContentFormat: "markdown" },
      timeoutMs: deps.config.integrationTimeoutMs,
      allowPrivate: deps.config.integrationAllowPrivate,
    })
    : await startChat(deps, config, input, typebotId);
  if (!call.ok) return failed(call.error);
  const parsed = TypebotReply.safeParse(call.body);
  const sessionId = running?.sessionId ?? (parsed.success ? parsed.data.sessionId : undefined);
  if (!parsed.success || !sessionId) return failed("Typebot answered an unexpected body");
  const turn = typebotTurn(parsed.data);
  return {
    session: { ...base, sessionId, choices: turn.choices, updatedAt: deps.system.now() },
    texts: turn.texts,
    ended: turn.ended,
    error: null,
  };
}

/** startChat of the queue's bot, with the contact's name and number as prefilled variables. */
async function startChat(deps: AppDeps, config: TypebotConfig, input: BotTurnInput, typebotId: string) {
  const publicId = await publicIdOf(deps, config, typebotId);
  const ticket = await getTicket(deps.system, input.companyId, input.ticketId);
  const contact = ticket ? await getContact(deps.system, input.companyId, ticket.contactId) : undefined;
  return await callIntegration("Typebot", `${config.botUrl}/api/v1/typebots/${encodeURIComponent(publicId)}/startChat`, {
    json: {
      textBubbleContentFormat: "markdown",
      // Typebot fills the flow's variables of these names and ignores the others.
      prefilledVariables: { name: contact?.name ?? "", number: contact?.number ?? "", ticketId: input.ticketId },
    },
    headers: config.token ? { authorization: `Bearer ${config.token}` } : {},
    timeoutMs: deps.config.integrationTimeoutMs,
    allowPrivate: deps.config.integrationAllowPrivate,
  });
}
