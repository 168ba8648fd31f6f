/** Unit tests of the tickets extras' pure parts: the tracking lines' texts and the contact form rules. */
import assert from "node:assert/strict";
import { contactErrors } from "./ContactEditDialog.tsx";
import { trackingText } from "./SystemLine.tsx";
import type { TrackingNote } from "./use_tracking.ts";

const note = (fields: Partial<TrackingNote>): TrackingNote => ({
  id: "0000000000000000",
  ticketId: 1,
  action: "transfer",
  queueId: 2,
  queueName: "Vendas",
  userId: 3,
  userName: "Alice Atendente",
  byUserId: 4,
  byUserName: "Ana Admin",
  createdAt: new Date(0).toISOString(),
  detail: null,
  ...fields,
});

Deno.test("trackingText() names the queue and user of transfers and returns, and who accepted, resolved or reopened", () => {
  assert.equal(trackingText(note({})), "Transferido para Vendas/Alice Atendente");
  assert.equal(trackingText(note({ userId: null, userName: null })), "Transferido para a fila Vendas");
  assert.equal(trackingText(note({ action: "return", userId: null, userName: null })), "Devolvido à fila Vendas");
  assert.equal(trackingText(note({ action: "return", queueId: null, queueName: null, userName: null })), "Devolvido à fila SEM FILA");
  assert.equal(trackingText(note({ action: "accept" })), "Aceito por Alice Atendente");
  assert.equal(trackingText(note({ action: "close" })), "Resolvido por Ana Admin");
  assert.equal(trackingText(note({ action: "reopen" })), "Reaberto por Ana Admin");
});

Deno.test("trackingText() shows the bot integrations' notes with their detail", () => {
  assert.equal(
    trackingText(note({ action: "integrationFailed", detail: "Typebot (Typebot answered HTTP 500)" })),
    "Falha na integração Typebot (Typebot answered HTTP 500): o cliente recebeu a mensagem de contingência e o ticket aguarda um atendente",
  );
  assert.equal(trackingText(note({ action: "botFinished", detail: "Typebot" })), "Typebot encerrou o fluxo: o ticket aguarda um atendente");
  assert.equal(trackingText(note({ action: "chatbot", detail: "2 - Vendas" })), "Opção do bot: 2 - Vendas");
});

Deno.test("contactErrors() gives the form's texts in Portuguese (#41: the spec's English ones leaked); none for a valid contact", () => {
  assert.deepEqual(contactErrors({ name: "Ana", number: "5511999990000", email: "" }), {});
  assert.deepEqual(contactErrors({ name: "Ana", number: "+55 (11) 99999-0000", email: "ana@exemplo.com" }), {});
  assert.deepEqual(contactErrors({ name: " ", number: "", email: "x" }), {
    name: "Obrigatório",
    number: "Obrigatório",
    email: "E-mail inválido",
  });
  assert.deepEqual(contactErrors({ name: "A", number: "1234567", email: "" }), { name: "Muito curto!", number: "Muito curto!" });
  assert.deepEqual(contactErrors({ name: "A".repeat(51), number: "1".repeat(51), email: "" }), { name: "Muito longo!", number: "Muito longo!" });
});
