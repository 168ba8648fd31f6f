/** Operations of the AI module (spec 002 §2.17, §7) and its reply assistant (issue #20). */
import { z } from "zod";
import { AiKey, AiSettingInput } from "../../domain/ai_module.ts";
import { area, type Operation } from "./operation.ts";

const ai = area("AI module");
const access = "plan flag useAI";
const AiSettingView = z.object({
  id: z.number().int(),
  key: AiKey,
  value: z.string().describe("The stored value; `api-key` reads •••••••• when set, \"\" when not"),
});
const AiSettingList = z.array(AiSettingView);
const AiSuggestion = z.object({ suggestion: z.string().describe("The model's answer, for the agent to edit; nothing is sent") });
const write = { body: { AiSettingInput }, response: { AiSettingView }, access: `${access}; settings:manage` };

/** The AI module endpoints. */
export const AI_OPERATIONS: Operation[] = [
  ai.get("/ai-module", "The company's AI settings as `{ id, key, value }` (the API key masked)", { response: { AiSettingList }, access }),
  ai.post("/ai-module", "Store an AI setting not yet stored (409 when it is: use PUT)", {
    ...write,
    created: true,
    example: { key: "form-endpoint", value: "https://api.openai.com/v1/chat/completions" },
    errors: ["ERR_PLAN_FEATURE", "ERR_CONFLICT"],
  }),
  ai.put("/ai-module", "Change a stored AI setting (404 when it is not stored: use POST)", {
    ...write,
    example: { key: "system-message", value: "Você é um atendente cordial da empresa." },
    errors: ["ERR_PLAN_FEATURE", "ERR_NO_SETTING_FOUND"],
  }),
  ai.post("/ai-module/suggest/:ticketId", "Ask the configured chat-completions endpoint for a reply to the ticket's last 20 messages", {
    response: { AiSuggestion },
    access: `${access}; whoever may write in the ticket`,
    description: "Posts `{ model, messages }` (the system message and data description, then the conversation) to " +
      "`form-endpoint` with `Authorization: Bearer {api-key}` when a key is set. The answer is returned, never sent. " +
      "400 ERR_INTEGRATION_NOT_CONFIGURED when the endpoint, model or instructions are missing; 502 ERR_INTEGRATION_FAILED " +
      "when the endpoint fails or answers no text; 504 when it does not answer in time.",
    errors: ["ERR_PLAN_FEATURE", "ERR_NO_TICKET_FOUND", "ERR_NO_PERMISSION", "ERR_INTEGRATION_NOT_CONFIGURED", "ERR_INTEGRATION_FAILED"],
  }),
];
