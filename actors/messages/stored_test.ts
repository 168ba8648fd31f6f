import assert from "node:assert/strict";
import type { Message } from "../../domain/message.ts";
import { messageValue, storedMessage, storedMessageOrNull } from "./stored.ts";
import { sampleMessage } from "../../tests/helpers/messages.ts";

const base: Message = sampleMessage({
  id: "1764460800123-000007-00",
  ticketId: 7,
  companyId: 2,
  contactId: 41,
  body: "Olá, gostaria de saber do pedido 12345 🎉",
  fromMe: false,
  read: false,
  providerId: "3EB0C7A1B2C3D4E5F6",
  createdAt: 1_764_460_800_123,
  updatedAt: 1_764_460_800_456,
});

Deno.test("a message's KV value is bytes that read back as the same message", () => {
  const cases: Message[] = [
    base,
    {
      ...base,
      fromMe: true,
      mediaType: "image",
      mediaUrl: "company2/abc.jpg",
      mediaName: "foto.jpg",
      mimetype: "image/jpeg",
      quotedMsgId: "1764460700000-000007-00",
      isDeleted: true,
      isEdited: true,
      ack: 5,
      read: true,
      providerId: null,
      participant: { number: "5511999990000", name: "Ana" },
      userId: 3,
      failed: { code: "ERR_SENDING_WAPP_MSG", attempts: 4 },
      sendAttempts: 4,
      body: "",
    },
    { ...base, body: "x".repeat(70_000) },
  ];
  for (const message of cases) {
    const value = messageValue(message);
    assert.ok(value instanceof Uint8Array);
    assert.deepEqual(storedMessage(value), message);
  }
  assert.ok(messageValue(base).length < 200, `a text message takes ${messageValue(base).length} B`);
});

Deno.test("a field the layout does not list is kept, and an undefined one stays absent", () => {
  const extra = { ...base, reaction: { emoji: "👍" } } as Message;
  assert.deepEqual(storedMessage(messageValue(extra)), extra);
  const { userId: _, ...withoutUser } = base;
  const read = storedMessage(messageValue(withoutUser as Message));
  assert.equal("userId" in read, false);
  assert.deepEqual(read, withoutUser);
});

Deno.test("an older store's message object reads as it is; an unknown layout is refused", () => {
  assert.equal(storedMessage(base), base);
  assert.equal(storedMessageOrNull(null), null);
  assert.deepEqual(storedMessageOrNull(messageValue(base)), base);
  const other = messageValue(base).slice();
  other[3] = 9; // after the array16 header (0xdc and a 2-byte count): the layout number
  assert.throws(() => storedMessage(other), /unknown layout 9/);
});
