import assert from "node:assert/strict";
import { readVcard, vcard } from "./message.ts";

Deno.test("readVcard() reads back the name and number of the cards this server sends", () => {
  assert.deepEqual(readVcard(vcard("Maria Souza", "+55 (11) 98888-7777")), { name: "Maria Souza", number: "5511988887777" });
});

Deno.test("readVcard() takes WhatsApp's waid, else the first TEL's digits, and says what is missing", () => {
  const phone = "BEGIN:VCARD\nVERSION:3.0\nFN:João\nitem1.TEL;type=CELL:+55 21 3333-4444\nitem2.TEL:+1 555 0100\nEND:VCARD";
  assert.deepEqual(readVcard(phone), { name: "João", number: "552133334444" });
  assert.deepEqual(readVcard("BEGIN:VCARD\nFN:Sem Número\nEND:VCARD"), { name: "Sem Número", number: "" });
  assert.deepEqual(readVcard("BEGIN:VCARD\nTEL;waid=5511900001111:+55 11 90000-1111\nEND:VCARD"), { name: "", number: "5511900001111" });
});
