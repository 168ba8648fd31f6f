import assert from "node:assert/strict";
import { badgeCount, cut, lastInteraction, listTime, messagePreview, phoneLink } from "./format.ts";

Deno.test("listTime() shows HH:mm today and dd/MM/yyyy HH:mm on other days", () => {
  const now = new Date(2026, 10, 22, 15, 30);
  assert.equal(listTime(new Date(2026, 10, 22, 9, 5), now), "09:05");
  assert.equal(listTime(new Date(2026, 10, 21, 23, 59), now), "21/11/2026 23:59");
  assert.equal(listTime(null, now), "");
});

Deno.test("badgeCount() caps at 999", () => {
  assert.equal(badgeCount(999), "999");
  assert.equal(badgeCount(1000), "999+");
});

Deno.test("messagePreview() cuts at 20 characters and uses the fixed texts", () => {
  assert.equal(messagePreview("Olá, preciso de ajuda com meu pedido"), "Olá, preciso de ajud...");
  assert.equal(messagePreview(""), "---");
  assert.equal(messagePreview("Novo Contato recebido"), "Novo Contato recebido");
  assert.equal(messagePreview("BEGIN:VCARD\nFN:Ana"), "Novo Contato recebido");
});

Deno.test("messagePreview() drops WhatsApp's markers before the cut", () => {
  assert.equal(messagePreview("*Alice Atendente:*\nOlá"), "Alice Atendente:\nOlá");
  assert.equal(messagePreview("*Pedido 42:* _urgente_ ~cancelado~"), "Pedido 42: urgente c...");
  assert.equal(messagePreview("2*3*4"), "2*3*4");
});

Deno.test("lastInteraction() is green to 10 min, orange to 59 min, then red hours and days", () => {
  const now = Date.parse("2026-11-22T12:00:00Z");
  const ago = (ms: number) => new Date(now - ms).toISOString();
  assert.deepEqual(lastInteraction(ago(5 * 60_000), now), { text: "5 min", tone: "success" });
  assert.deepEqual(lastInteraction(ago(30 * 60_000), now), { text: "30 min", tone: "warning" });
  assert.deepEqual(lastInteraction(ago(3 * 3600_000), now), { text: "3 h", tone: "danger" });
  assert.deepEqual(lastInteraction(ago(49 * 3600_000), now), { text: "2 d", tone: "danger" });
});

Deno.test("phoneLink() inserts a 9 after the first 4 digits", () => {
  assert.equal(phoneLink("55 11 8888-7777"), "tel:+551198888777" + "7");
});

Deno.test("cut() shortens quick-reply labels to 35 characters", () => {
  assert.equal(cut("a".repeat(40), 35), "a".repeat(35) + "...");
  assert.equal(cut("curto", 35), "curto");
});
