import assert from "node:assert/strict";
import { afterPost, afterRead, type Chat, ChatInput, CHAT_TEXTS, memberChanges, membersFor, pageRange } from "./chat.ts";

const chat: Chat = {
  v: 1,
  id: 7,
  uuid: "u",
  companyId: 1,
  title: "Equipe",
  ownerId: 1,
  members: [{ userId: 1, unreads: 0 }, { userId: 2, unreads: 3 }, { userId: 3, unreads: 0 }],
  lastMessage: "",
  seq: 4,
  createdAt: 0,
  updatedAt: 0,
};

Deno.test("ChatInput takes ids or { id }s once each and answers the dialog's alerts", () => {
  assert.deepEqual(ChatInput.parse({ title: " Equipe ", users: [2, { id: 3 }, "2"] }), { title: "Equipe", users: [2, 3] });
  const bad = ChatInput.safeParse({ title: "", users: [] });
  assert.deepEqual(bad.error?.issues.map((i) => i.message), [CHAT_TEXTS.titleRequired, CHAT_TEXTS.usersRequired]);
});

Deno.test("afterPost() numbers the message and adds one unread to everyone but the sender", () => {
  const { chat: next, message } = afterPost(chat, 2, "Oi", 100);
  assert.deepEqual([message.id, message.senderId, next.seq, next.lastMessage, next.updatedAt], [5, 2, 5, "Oi", 100]);
  assert.deepEqual(next.members.map((m) => m.unreads), [1, 3, 1]);
});

Deno.test("afterRead() clears only the reader, and returns the same chat when nothing changes", () => {
  assert.deepEqual(afterRead(chat, 2).members.map((m) => m.unreads), [0, 0, 0]);
  assert.equal(afterRead(chat, 1), chat);
});

Deno.test("membersFor() keeps the owner first and members' counts; memberChanges() names who came and went", () => {
  const members = membersFor(1, [3, 1, 4], chat.members);
  assert.deepEqual(members, [{ userId: 1, unreads: 0 }, { userId: 3, unreads: 0 }, { userId: 4, unreads: 0 }]);
  assert.deepEqual(memberChanges(chat.members, members), { added: [4], removed: [2] });
});

Deno.test("pageRange() pages from the newest message, 20 at a time", () => {
  assert.deepEqual(pageRange(45, 1), { from: 26, to: 45 });
  assert.deepEqual(pageRange(45, 3), { from: 1, to: 5 });
  assert.equal(pageRange(45, 4), null);
  assert.equal(pageRange(0, 1), null);
});
