import assert from "node:assert/strict";
import { fillTemplate, greetingOf, TEMPLATE_VARIABLES } from "./message_template.ts";

// 2025-03-04 13:05 UTC is 10:05 in São Paulo (UTC-3).
const ctx = { name: "Maria  Souza", number: "5511966660001", email: "maria@x.com", now: Date.UTC(2025, 2, 4, 13, 5), timeZone: "America/Sao_Paulo" };

Deno.test("fillTemplate() fills every listed variable in the one {{syntax}}", () => {
  const text = TEMPLATE_VARIABLES.map((v) => `{{${v.token}}}`).join("|");
  assert.equal(fillTemplate(text, ctx), "Maria  Souza|Maria|5511966660001|maria@x.com|Bom dia|04/03/2025|10:05");
});

Deno.test("fillTemplate() still reads the older spellings: {{name}}, {nome}, {primeiroNome}, {email}, {numero}", () => {
  assert.equal(fillTemplate("Olá {{name}}!", ctx), "Olá Maria  Souza!");
  assert.equal(fillTemplate("Oi {primeiroNome} ({nome}) {email} {numero}", ctx), "Oi Maria (Maria  Souza) maria@x.com 5511966660001");
  assert.equal(fillTemplate("{{ NOME }} {{Primeiro_Nome}} {{firstName}}", ctx), "Maria  Souza Maria Maria");
});

Deno.test("fillTemplate() fills the campaign settings' variables and leaves unknown ones as typed", () => {
  const extra = [{ key: "{loja}", value: "Centro" }];
  assert.equal(fillTemplate("{loja} {{loja}} {x} {{y}} { nome }", { ...ctx, extra }), "Centro Centro {x} {{y}} { nome }");
});

Deno.test("greetingOf() follows the company's clock", () => {
  assert.deepEqual([greetingOf(0), greetingOf(11 * 60 + 59), greetingOf(12 * 60), greetingOf(18 * 60)], ["Bom dia", "Bom dia", "Boa tarde", "Boa noite"]);
});
