/** Internal chats (spec 002 §2.8): what the API calls. See actor.ts for the actor itself. */
import type { ActorSystem } from "../_runtime/system.ts";
import { type Chat, chatMessageView, type ChatMessageView, chatView, type ChatView, isMember, pageRange } from "../../domain/chat.ts";
import type { ChatMessage } from "../../domain/chat.ts";
import { isoText } from "../../domain/iso_date.ts";
import { chatActor, type ChatState } from "./actor.ts";
import { chatIdsActor } from "./ids.ts";
import { chatMessageKey, userChatsPrefix } from "./keys.ts";
import { userNames } from "./names.ts";

export { chatActor, chatMissing } from "./actor.ts";
export { chatIdsActor } from "./ids.ts";

/** The actor of chat `chatId` of `companyId` (another company's id addresses an empty chat). */
export function chatOf(system: ActorSystem, companyId: number, chatId: number) {
  return system.ref(chatActor, `${companyId}:${chatId}`);
}

/** The chat's record as its actor holds it (null when it does not exist). */
export async function peekChat(system: ActorSystem, companyId: number, chatId: number): Promise<Chat | null> {
  return (await chatOf(system, companyId, chatId).peek<ChatState>()).chat;
}

/** The chat if `userId` is a member of it, else undefined. */
export async function memberChat(system: ActorSystem, companyId: number, chatId: number, userId: number) {
  const chat = await peekChat(system, companyId, chatId);
  return chat && isMember(chat, userId) ? chat : undefined;
}

/** Creates a chat owned by `ownerId` with the chosen users as members. */
export async function createChat(
  system: ActorSystem,
  companyId: number,
  draft: { ownerId: number; title: string; users: number[] },
): Promise<ChatView> {
  const chatId = await system.ref(chatIdsActor, companyId).ask("next", undefined);
  return await chatOf(system, companyId, chatId).ask("create", { ...draft, uuid: crypto.randomUUID() });
}

/**
 * The chats `userId` belongs to: one short list of its membership keys, then each chat's
 * record from its actor (a user is in tens of chats, not thousands).
 */
export async function userChats(system: ActorSystem, companyId: number, userId: number): Promise<Chat[]> {
  const ids = await Array.fromAsync(system.kv.list({ prefix: userChatsPrefix(companyId, userId) }), (e) => Number(e.key[3]));
  const chats = await Promise.all(ids.map((id) => peekChat(system, companyId, id)));
  return chats.filter((c): c is Chat => c !== null && isMember(c, userId));
}

/** Chat views with the users' current names. */
export async function viewsOf(system: ActorSystem, chats: readonly Chat[]): Promise<ChatView[]> {
  const names = await userNames(system);
  return chats.map((c) => chatView(c, names, isoText));
}

/** Page `pageNumber` (1 = newest) of a chat's messages, oldest first within the page. */
export async function chatMessagesPage(
  system: ActorSystem,
  chat: Chat,
  pageNumber: number,
): Promise<{ records: ChatMessageView[]; count: number; hasMore: boolean }> {
  const range = pageRange(chat.seq, pageNumber);
  if (!range) return { records: [], count: chat.seq, hasMore: false };
  const entries = await Array.fromAsync(system.kv.list<ChatMessage>({
    start: chatMessageKey(chat.companyId, chat.id, range.from),
    end: chatMessageKey(chat.companyId, chat.id, range.to + 1),
  }));
  const names = await userNames(system);
  return {
    records: entries.map((e) => chatMessageView(e.value, names, isoText)),
    count: chat.seq,
    hasMore: range.from > 1,
  };
}
