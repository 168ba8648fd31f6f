/**
 * The reply assistant (issue #20): asks the company's configured OpenAI-compatible
 * chat-completions endpoint for an answer to a ticket's conversation (domain/ai_prompt.ts
 * builds the request from the instructions, the data description and the last 20 messages)
 * and returns its text for the agent to edit. Nothing is stored or sent to the customer: the
 * conversation is the same whatever the endpoint does.
 *
 * The endpoint is the admin's own choice and may well be a model on the company's network
 * (Ollama, vLLM on localhost), so private addresses are not refused here, as for Typebot and
 * n8n; only the answer's text comes back, never the raw body.
 */
import { aiConfig } from "../../actors/ai_settings/mod.ts";
import { pageOfMessages } from "../../actors/messages/mod.ts";
import { missingAiKey } from "../../domain/ai_module.ts";
import { AI_HISTORY, completionRequest, completionText } from "../../domain/ai_prompt.ts";
import { AppError } from "../../domain/errors.ts";
import type { AppDeps } from "../deps.ts";
import { callIntegration } from "../integrations/http.ts";

/** How long a model may think before the agent is told (models are slower than bots). */
export const AI_TIMEOUT_MS = 30_000;

/** The suggestion for ticket `ticketId` of `companyId` (access was checked by the caller). */
export async function suggestReply(deps: AppDeps, companyId: number, ticketId: number): Promise<{ suggestion: string }> {
  const config = await aiConfig(deps.system, companyId);
  const missing = missingAiKey(config);
  if (missing) {
    throw new AppError("ERR_INTEGRATION_NOT_CONFIGURED", {
      status: 400,
      message: `The AI module is not configured: ${missing} is empty`,
    });
  }
  const { messages } = await pageOfMessages(deps.system, companyId, ticketId, 1, AI_HISTORY);
  const timeoutMs = deps.config.integrationTimeoutMs ?? AI_TIMEOUT_MS;
  const result = await callIntegration("The AI endpoint", config.endpoint, {
    json: completionRequest(config, messages),
    headers: config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {},
    timeoutMs,
  });
  if (!result.ok) {
    // A timeout is 504, so the composer can say "it took too long, try again".
    throw new AppError("ERR_INTEGRATION_FAILED", { status: result.timedOut ? 504 : 502, message: result.error });
  }
  const suggestion = completionText(result.body);
  if (suggestion === null) {
    throw new AppError("ERR_INTEGRATION_FAILED", {
      status: 502,
      message: "The AI endpoint answered without a text in choices[0].message.content",
    });
  }
  return { suggestion };
}
