/**
 * The company's model (issue #20): asks the configured OpenAI-compatible chat-completions
 * endpoint for an answer to a ticket's conversation (domain/ai_prompt.ts builds the request
 * from the instructions, the data description and the last 20 messages). Two callers: the
 * agent's reply assistant (`suggestReply`: the text for the agent to edit; nothing is stored
 * or sent) and the bot of a queue whose typeChatbot is "ai" (`askAiBot`, server/integrations/
 * turns.ts sends its answer, marked as the AI's).
 *
 * The endpoint is the admin's own choice, so like Typebot's and n8n's it may reach only public
 * addresses (server/integrations/http.ts); an operator whose model runs on its own network
 * (Ollama, vLLM) lets it through with BALCAO_INTEGRATION_ALLOW_PRIVATE. Only the answer's text
 * comes back, never the raw body.
 */
import { aiConfig } from "../../actors/ai_settings/mod.ts";
import { pageOfMessages } from "../../actors/messages/mod.ts";
import { companyPlan } from "../../actors/platform/lookup.ts";
import { missingAiKey } from "../../domain/ai_module.ts";
import { AI_HISTORY, completionRequest, completionText } from "../../domain/ai_prompt.ts";
import { AppError } from "../../domain/errors.ts";
import { planAllows } from "../../domain/plan.ts";
import type { AppDeps } from "../deps.ts";
import { callIntegration } from "../integrations/http.ts";

/** How long a model may think before the caller gives up (models are slower than bots). */
export const AI_TIMEOUT_MS = 30_000;

/** What the model gave, or why it gave nothing (`kind` decides the HTTP status of a suggestion). */
export type ModelAnswer =
  | { ok: true; text: string }
  | { ok: false; kind: "notConfigured" | "failed" | "timeout"; error: string };

/** The model's answer to ticket `ticketId` of `companyId`; every failure is a value. */
export async function askModel(deps: AppDeps, companyId: number, ticketId: number): Promise<ModelAnswer> {
  const config = await aiConfig(deps.system, companyId);
  const missing = missingAiKey(config);
  if (missing) return { ok: false, kind: "notConfigured", error: `The AI module is not configured: ${missing} is empty` };
  const { messages } = await pageOfMessages(deps.system, companyId, ticketId, 1, AI_HISTORY);
  const result = await callIntegration("The AI endpoint", config.endpoint, {
    json: completionRequest(config, messages),
    headers: config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {},
    timeoutMs: deps.config.integrationTimeoutMs ?? AI_TIMEOUT_MS,
    allowPrivate: deps.config.integrationAllowPrivate,
  });
  if (!result.ok) return { ok: false, kind: result.timedOut ? "timeout" : "failed", error: result.error };
  const text = completionText(result.body);
  return text === null
    ? { ok: false, kind: "failed", error: "The AI endpoint answered without a text in choices[0].message.content" }
    : { ok: true, text };
}

/**
 * The reply assistant's suggestion (access to the ticket was checked by the caller): 400
 * ERR_INTEGRATION_NOT_CONFIGURED, 502 ERR_INTEGRATION_FAILED, or 504 on a timeout, so the
 * composer can say "it took too long, try again".
 */
export async function suggestReply(deps: AppDeps, companyId: number, ticketId: number): Promise<{ suggestion: string }> {
  const answer = await askModel(deps, companyId, ticketId);
  if (answer.ok) return { suggestion: answer.text };
  if (answer.kind === "notConfigured") {
    throw new AppError("ERR_INTEGRATION_NOT_CONFIGURED", { status: 400, message: answer.error });
  }
  throw new AppError("ERR_INTEGRATION_FAILED", { status: answer.kind === "timeout" ? 504 : 502, message: answer.error });
}

/** The queue bot's answer: as askModel, and only while the company's plan has useAI. */
export async function askAiBot(deps: AppDeps, companyId: number, ticketId: number): Promise<ModelAnswer> {
  if (!planAllows(await companyPlan(deps.system, companyId), "useAI")) {
    return { ok: false, kind: "notConfigured", error: "the plan has no useAI" };
  }
  return await askModel(deps, companyId, ticketId);
}
