import assert from "node:assert/strict";
import { n8nAnswerText, n8nBaseUrl } from "./n8n.ts";

Deno.test("n8nAnswerText() reads the reply from the shapes a workflow returns", () => {
  assert.equal(n8nAnswerText("  Olá!  "), "Olá!");
  assert.equal(n8nAnswerText({ output: "from an AI agent" }), "from an AI agent");
  assert.equal(n8nAnswerText({ text: "t", message: "m" }), "t");
  assert.equal(n8nAnswerText([{ json: { message: "one" } }, { reply: "two" }]), "one\n\ntwo");
  assert.equal(n8nAnswerText({ data: { answer: "nested" } }), "nested");
  assert.equal(n8nAnswerText({ message: { content: "chat style" } }), "chat style");
});

Deno.test("n8nAnswerText() is null for bodies without a reply", () => {
  assert.equal(n8nAnswerText(null), null);
  assert.equal(n8nAnswerText({}), null);
  assert.equal(n8nAnswerText({ ok: true, count: 2 }), null);
  assert.equal(n8nAnswerText([]), null);
  assert.equal(n8nAnswerText("   "), null);
  assert.equal(n8nAnswerText(42), null);
});

Deno.test("n8nBaseUrl() takes the instance from an instance or webhook URL", () => {
  assert.equal(n8nBaseUrl("https://n8n.example.com"), "https://n8n.example.com");
  assert.equal(n8nBaseUrl("https://n8n.example.com/"), "https://n8n.example.com");
  assert.equal(n8nBaseUrl("https://n8n.example.com/webhook/abc-123"), "https://n8n.example.com");
  assert.equal(n8nBaseUrl("https://example.com/n8n/webhook-test/x"), "https://example.com/n8n");
  assert.equal(n8nBaseUrl("http://127.0.0.1:5678/api/v1"), "http://127.0.0.1:5678");
  assert.equal(n8nBaseUrl("not a url"), null);
  assert.equal(n8nBaseUrl("ftp://x.example"), null);
});
