/**
 * The AI module's settings (spec 002 §2.17, §3, §5, §7, §8): per company key/value pairs read
 * with `GET /ai-module/` and written one key at a time with `POST /ai-module` (a key not yet
 * stored) and `PUT /ai-module` (a stored key). The spec names three keys: `form-endpoint` (the
 * address of an OpenAI-compatible chat-completions endpoint, `POST {endpoint}` with
 * `{ model, messages }`), `system-message` (the instructions) and `data-description` (what the
 * company tells the model about its data). Such an endpoint also wants a model name and, most
 * often, a bearer key, so two keys of ours join them: `model` and `api-key`, the latter
 * write-only like every credential of the product (answers carry SECRET_MASK, never the key).
 *
 * §5: "each value is required; otherwise an error toast asks for a valid URL or for
 * instructions": the endpoint must be an http(s) URL ('Informe uma URL válida'), the texts
 * and the model must not be blank. The key alone may be empty (a local model needs none).
 * Pure; the page's forms validate with the same rules (domain/form_schemas.ts).
 */
import { z } from "zod";
import { SECRET_MASK } from "./settings.ts";
import { isHttpUrl } from "./text.ts";

/** The keys the module stores (the spec's three, then ours). */
export const AI_KEYS = ["form-endpoint", "system-message", "data-description", "model", "api-key"] as const;
export const AiKey = z.enum(AI_KEYS);
export type AiKey = z.infer<typeof AiKey>;

/** The write-only key: shown as SECRET_MASK when stored, "" when not. */
export const AI_SECRET_KEY = "api-key" satisfies AiKey;

/** Validation texts (pt: the spec's language; the page translates by these very strings). */
export const AI_TEXTS = {
  url: "Informe uma URL válida",
  instructions: "Informe as instruções do sistema",
  data: "Informe a descrição dos dados",
  model: "Informe o modelo",
  tooLong: "Texto muito longo",
  mask: "Envie a nova chave, não a máscara da chave salva",
} as const;

/** Longest instructions or data description kept (a record stays far below KV's 64 KiB). */
export const AI_TEXT_MAX = 20_000;

const endpointValue = z.string().trim().max(2000, AI_TEXTS.tooLong).refine(isHttpUrl, AI_TEXTS.url);
const requiredText = (message: string) => z.string().trim().min(1, message).max(AI_TEXT_MAX, AI_TEXTS.tooLong);
const modelValue = z.string().trim().min(1, AI_TEXTS.model).max(200, AI_TEXTS.tooLong);
const apiKeyValue = z.string().trim().max(1000, AI_TEXTS.tooLong).refine((v) => v !== SECRET_MASK, AI_TEXTS.mask);

/** `POST` and `PUT /ai-module` body: one key and its value, checked by that key's rule. */
export const AiSettingInput = z.discriminatedUnion("key", [
  z.object({ key: z.literal("form-endpoint"), value: endpointValue }),
  z.object({ key: z.literal("system-message"), value: requiredText(AI_TEXTS.instructions) }),
  z.object({ key: z.literal("data-description"), value: requiredText(AI_TEXTS.data) }),
  z.object({ key: z.literal("model"), value: modelValue }),
  z.object({ key: z.literal("api-key"), value: apiKeyValue }),
]);
export type AiSettingInput = z.infer<typeof AiSettingInput>;

/** The page's endpoint section: address, model and (optional, write-only) key. */
export const AiEndpointForm = z.object({
  "form-endpoint": endpointValue,
  model: modelValue,
  "api-key": apiKeyValue,
});

/** The page's instructions section. */
export const AiInstructionsForm = z.object({ "system-message": requiredText(AI_TEXTS.instructions) });

/** The page's data description section. */
export const AiDataForm = z.object({ "data-description": requiredText(AI_TEXTS.data) });

/** One stored setting, under `["ai_setting", companyId, id]`. */
export const AiSetting = z.object({
  id: z.number(),
  companyId: z.number(),
  key: AiKey,
  value: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type AiSetting = z.infer<typeof AiSetting>;

/** A setting as the API shows it (the key's value masked). */
export function aiSettingView(setting: AiSetting): { id: number; key: AiKey; value: string } {
  const { id, key, value } = setting;
  return { id, key, value: key === AI_SECRET_KEY && value !== "" ? SECRET_MASK : value };
}

/** What the reply assistant needs, read from the stored settings. */
export interface AiConfig {
  endpoint: string;
  model: string;
  apiKey: string;
  systemMessage: string;
  dataDescription: string;
}

/** The config from a company's settings (missing keys read as ""). */
export function aiConfigOf(settings: Iterable<AiSetting>): AiConfig {
  const by = new Map<string, string>();
  for (const s of settings) by.set(s.key, s.value);
  return {
    endpoint: by.get("form-endpoint") ?? "",
    model: by.get("model") ?? "",
    apiKey: by.get("api-key") ?? "",
    systemMessage: by.get("system-message") ?? "",
    dataDescription: by.get("data-description") ?? "",
  };
}

/**
 * The first key a suggestion cannot do without, or null when the assistant is ready. The data
 * description is required by the page (§5) but a model answers without it, so it is not here.
 */
export function missingAiKey(config: AiConfig): AiKey | null {
  if (!config.endpoint) return "form-endpoint";
  if (!config.model) return "model";
  if (!config.systemMessage) return "system-message";
  return null;
}
