import assert from "node:assert/strict";
import type { AiConfig } from "./ai_module.ts";
import { completionRequest, completionText } from "./ai_prompt.ts";
import type { Message } from "./message.ts";

const config: AiConfig = { endpoint: "http://x", model: "m", apiKey: "", systemMessage: " Seja cordial. ", dataDescription: "" };

function msg(fields: Partial<Message>): Message {
  return {
    id: "1", ticketId: 1, companyId: 1, contactId: 1, body: "", fromMe: false, mediaType: "chat", mediaUrl: null,
    mediaName: null, mimetype: null, quotedMsgId: null, isDeleted: false, isEdited: false, ack: 0, read: true,
    providerId: null, participant: null, userId: null, failed: null, sendAttempts: 0, createdAt: 0, updatedAt: 0,
    ...fields,
  };
}

Deno.test("completionRequest() maps the conversation to user/assistant turns after one system message", () => {
  const request = completionRequest(config, [
    msg({ body: "Oi" }),
    msg({ body: "*Ana:*\nOlá, em que posso ajudar?", fromMe: true }),
    msg({ body: "apagada", isDeleted: true }),
    msg({ body: "", mediaType: "image", mediaName: "foto.jpg" }),
    msg({ body: "Preço?", participant: { number: "55", name: "Bia" } }),
    msg({ body: "   " }),
  ]);
  assert.deepEqual(request, {
    model: "m",
    messages: [
      { role: "system", content: "Seja cordial." },
      { role: "user", content: "Oi" },
      { role: "assistant", content: "Olá, em que posso ajudar?" },
      { role: "user", content: "[image foto.jpg]" },
      { role: "user", content: "Bia: Preço?" },
    ],
  });
});

Deno.test("completionRequest() keeps only the newest 20 messages", () => {
  const history = Array.from({ length: 30 }, (_, i) => msg({ body: `m${i}` }));
  const { messages } = completionRequest({ ...config, dataDescription: "Dados" }, history);
  assert.equal(messages.length, 21);
  assert.equal(messages[0].content, "Seja cordial.\n\nDados");
  assert.equal(messages[1].content, "m10");
});

Deno.test("completionText() reads choices[0].message.content as a string or text parts, else null", () => {
  assert.equal(completionText({ choices: [{ message: { role: "assistant", content: " Olá " } }] }), "Olá");
  assert.equal(completionText({ choices: [{ message: { content: [{ type: "text", text: "A" }, { type: "text", text: "B" }] } }] }), "AB");
  assert.equal(completionText({ choices: [] }), null);
  assert.equal(completionText({ choices: [{ message: { content: null, tool_calls: [] } }] }), null);
  assert.equal(completionText("texto"), null);
  assert.equal(completionText(null), null);
});
