/**
 * KV keys of internal chats (DESIGN §3). Every key starts with its kind and the company id,
 * so a tenant purge finds them (actors/tenancy/purge.ts).
 */

/** The chat record. */
export const chatKey = (companyId: number, chatId: number): Deno.KvKey => ["chat", companyId, chatId];

/** Message number `n` of a chat; numbers sort as KV numbers, so a page is one range read. */
export const chatMessageKey = (companyId: number, chatId: number, n: number): Deno.KvKey => [
  "chat_message",
  companyId,
  chatId,
  n,
];

/** Every message of a chat. */
export const chatMessagesPrefix = (companyId: number, chatId: number): Deno.KvKey => ["chat_message", companyId, chatId];

/** A user's membership of a chat: GET /chats lists the caller's chats from these. */
export const chatMemberKey = (companyId: number, userId: number, chatId: number): Deno.KvKey => [
  "chat_member",
  companyId,
  userId,
  chatId,
];

/** Every chat a user belongs to. */
export const userChatsPrefix = (companyId: number, userId: number): Deno.KvKey => ["chat_member", companyId, userId];

/** The company's last chat id. */
export const chatCounterKey = (companyId: number): Deno.KvKey => ["counter", "chat", companyId];
