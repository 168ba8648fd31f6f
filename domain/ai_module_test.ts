import assert from "node:assert/strict";
import { AiEndpointForm, aiConfigOf, AiSettingInput, aiSettingView, missingAiKey } from "./ai_module.ts";
import { SECRET_MASK } from "./settings.ts";

Deno.test("AiSettingInput checks each key by its own rule", () => {
  assert.ok(AiSettingInput.safeParse({ key: "form-endpoint", value: "http://localhost:11434/v1/chat/completions" }).success);
  assert.ok(!AiSettingInput.safeParse({ key: "form-endpoint", value: "javascript:alert(1)" }).success);
  assert.ok(AiSettingInput.safeParse({ key: "api-key", value: "" }).success, "a local model needs no key");
  assert.ok(!AiSettingInput.safeParse({ key: "api-key", value: SECRET_MASK }).success);
  assert.ok(!AiSettingInput.safeParse({ key: "model", value: " " }).success);
  assert.ok(!AiSettingInput.safeParse({ key: "other", value: "x" }).success);
});

Deno.test("AiEndpointForm shows 'Informe uma URL válida' at the endpoint field", () => {
  const r = AiEndpointForm.safeParse({ "form-endpoint": "x", model: "m", "api-key": "" });
  assert.equal(r.success, false);
  assert.deepEqual(r.error!.issues.map((i) => [i.path.join("."), i.message]), [["form-endpoint", "Informe uma URL válida"]]);
});

Deno.test("aiSettingView() masks a stored key; missingAiKey() names what a suggestion lacks", () => {
  const row = { id: 1, companyId: 1, createdAt: 0, updatedAt: 0 };
  assert.equal(aiSettingView({ ...row, key: "api-key", value: "sk" }).value, SECRET_MASK);
  assert.equal(aiSettingView({ ...row, key: "api-key", value: "" }).value, "");
  assert.equal(aiSettingView({ ...row, key: "model", value: "m" }).value, "m");
  const config = aiConfigOf([{ ...row, key: "form-endpoint", value: "http://x" }, { ...row, id: 2, key: "model", value: "m" }]);
  assert.equal(missingAiKey(config), "system-message");
  assert.equal(missingAiKey({ ...config, systemMessage: "s" }), null);
  assert.equal(missingAiKey(aiConfigOf([])), "form-endpoint");
});
