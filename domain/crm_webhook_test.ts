import assert from "node:assert/strict";
import { crmWebhookIn, isCrmWebhook, keywordCodeFor } from "./crm_webhook.ts";

Deno.test("isCrmWebhook() wants an http(s) URL with an api path segment", () => {
  assert.equal(isCrmWebhook("https://crm.example.com/api/v1/hooks"), true);
  assert.equal(isCrmWebhook("http://127.0.0.1:8080/API/whatsapp"), true);
  assert.equal(isCrmWebhook("https://n8n.example.com/webhook/abc"), false);
  assert.equal(isCrmWebhook("https://example.com/apis/x"), false);
  assert.equal(isCrmWebhook("ftp://example.com/api/x"), false);
  assert.equal(isCrmWebhook("not a url"), false);
  assert.equal(isCrmWebhook(""), false);
  assert.equal(crmWebhookIn([{ webhook: "" }, { webhook: null }, { webhook: "https://x.io/api/" }]), true);
  assert.equal(crmWebhookIn([{}]), false);
});

Deno.test("keywordCodeFor() matches whole words ignoring case and accents; the first row wins", () => {
  const table = [{ keyword: "orçamento", code: "ORC" }, { keyword: "suporte técnico", code: "SUP" }, { keyword: "preço", code: "PRE" }];
  assert.deepEqual(keywordCodeFor("Quero um ORCAMENTO!", table), table[0]);
  assert.deepEqual(keywordCodeFor("preciso de  Suporte   Tecnico já", table), table[1]);
  assert.deepEqual(keywordCodeFor("qual o preço do orçamento?", table), table[0]);
  assert.equal(keywordCodeFor("orçamentos", table), null);
  assert.equal(keywordCodeFor("preçoso", table), null);
  assert.equal(keywordCodeFor("", table), null);
  assert.equal(keywordCodeFor("orçamento", []), null);
});
