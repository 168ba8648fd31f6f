import assert from "node:assert/strict";
import {
  DeleteMessagesInput,
  ForwardMessagesInput,
  lastMessageText,
  locationHref,
  listPreview,
  mediaTypeOfMime,
  messageId,
  parseMessageId,
  SendMessageInput,
  signedBody,
  wordsOf,
} from "./message.ts";

Deno.test("listPreview() cuts to 20 characters plus '...', '---' when empty, fixed texts for cards and locations", () => {
  assert.equal(listPreview("curto"), "curto");
  assert.equal(listPreview("exatamente vinte cha"), "exatamente vinte cha");
  assert.equal(listPreview("uma mensagem bem mais longa"), "uma mensagem bem mai...");
  assert.equal(listPreview(""), "---");
  assert.equal(listPreview(null), "---");
  assert.equal(listPreview("BEGIN:VCARD\nVERSION:3.0"), "Novo Contato recebido");
  assert.equal(listPreview("data:image/png;base64,AAAA"), "Localização recebida");
  assert.equal(listPreview("😀".repeat(25)), `${"😀".repeat(20)}...`);
});

Deno.test("lastMessageText() keeps the body, or the spec's texts for contact cards and locations", () => {
  const base = { mediaName: null } as const;
  assert.equal(lastMessageText({ ...base, body: "oi", mediaType: "chat" }), "oi");
  assert.equal(
    lastMessageText({ ...base, body: "BEGIN:VCARD", mediaType: "contactMessage" }),
    "Novo Contato recebido",
  );
  assert.equal(
    lastMessageText({ ...base, body: "", mediaType: "contactsArrayMessage" }),
    "Novo Contato recebido",
  );
  assert.equal(
    lastMessageText({ ...base, body: "-23.5,-46.6", mediaType: "locationMessage" }),
    "Localização recebida",
  );
  assert.equal(lastMessageText({ body: "", mediaType: "image", mediaName: "foto.jpg" }), "foto.jpg");
  assert.equal(lastMessageText({ ...base, body: "x".repeat(1000), mediaType: "chat" }).length, 255);
});

Deno.test("messageId() sorts by time then counter and names its ticket", () => {
  const a = messageId(42, 1_700_000_000_000, 0);
  const b = messageId(42, 1_700_000_000_000, 1);
  const c = messageId(42, 1_700_000_000_001, 0);
  assert.ok(a < b && b < c);
  assert.deepEqual(parseMessageId(a), { ticketId: 42, at: 1_700_000_000_000, seq: 0 });
  assert.equal(parseMessageId("../etc"), null);
  assert.equal(parseMessageId("1700000000000000-0"), null);
});

Deno.test("wordsOf() folds case and accents and keeps words of 3+ characters", () => {
  assert.deepEqual(wordsOf("Olá, É o BOLETO nº 123!"), new Set(["ola", "boleto", "123"]));
});

Deno.test("mediaTypeOfMime() and signedBody() follow the spec's media types and signature", () => {
  assert.equal(mediaTypeOfMime("image/jpeg"), "image");
  assert.equal(mediaTypeOfMime("audio/webm;codecs=opus"), "audio");
  assert.equal(mediaTypeOfMime("video/mp4"), "video");
  assert.equal(mediaTypeOfMime("application/pdf"), "application");
  assert.equal(mediaTypeOfMime(""), "application");
  assert.equal(signedBody("Ana", "Olá"), "*Ana:*\nOlá");
});

Deno.test("message inputs accept the client's shapes: quoted message objects, contact objects, one id", () => {
  const id = messageId(7, 1_700_000_000_000, 3);
  assert.equal(SendMessageInput.parse({ body: "x", quotedMsg: { id, body: "y" } }).quotedMsg, id);
  assert.equal(SendMessageInput.parse({ body: "x", quotedMsg: "nope" }).quotedMsg, null);
  assert.deepEqual(DeleteMessagesInput.parse({ messages: id }).messages, [id]);
  const fwd = ForwardMessagesInput.parse({ messages: [{ id }], contacts: [{ id: 3 }, 4], queue: { id: 2 } });
  assert.deepEqual(fwd.contacts, [3, 4]);
  assert.equal(fwd.queue, 2);
  const none = ForwardMessagesInput.safeParse({ messages: [id], contacts: [] });
  assert.equal(none.success, false);
  assert.equal(none.error?.issues[0].message, "Selecione pelo menos um contato");
});

Deno.test("locationHref() links coordinates and http(s) map URLs only, never javascript: or other schemes", () => {
  assert.equal(locationHref("-23.5, -46.6"), "https://maps.google.com/maps?q=-23.5,-46.6");
  assert.equal(locationHref("https://maps.google.com/maps?q=-23.5%2C-46.6&z=17|Loja - Rua A"), "https://maps.google.com/maps?q=-23.5%2C-46.6&z=17");
  assert.equal(locationHref("Loja\nRua A\nhttps://maps.example/x"), "https://maps.example/x");
  for (const body of ["javascript:alert(document.cookie)", "JaVaScRiPt:alert(1)|Loja", "data:text/html,<script>alert(1)</script>", "vbscript:x", "//evil.example/x", "Loja sem mapa", ""]) {
    assert.equal(locationHref(body), null, body);
  }
});
