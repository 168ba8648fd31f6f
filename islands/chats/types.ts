/** Shapes the chat page reads (server/api/chats.ts answers them; domain/chat.ts builds them). */
import type { ChatMessageView, ChatView } from "../../domain/chat.ts";

export type { ChatMessageView, ChatView };

/** GET /chats body. */
export interface ChatList {
  records: ChatView[];
  count: number;
  hasMore: boolean;
  /** The viewer's unread messages over all its chats. */
  unreads: number;
}

/** GET /chats/{id}/messages body. */
export interface ChatMessagePage {
  records: ChatMessageView[];
  count: number;
  hasMore: boolean;
}

/** The page's first data, read on the server. */
export interface ChatsData {
  list: ChatList | null;
  /** The chat of the address (/chats/{uuid}), when there is one the viewer belongs to. */
  current: ChatView | null;
  messages: ChatMessagePage | null;
}

/** Most recently active first (the server's order), one entry per id. */
export function sortChats(chats: readonly ChatView[]): ChatView[] {
  return [...chats].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || b.id - a.id);
}

/** `chats` with `chat` put in (replacing the same id), in order. */
export function upsertChat(chats: readonly ChatView[], chat: ChatView): ChatView[] {
  return sortChats([chat, ...chats.filter((c) => c.id !== chat.id)]);
}

/** `older` and `newer` messages as one list in number order, each message once. */
export function mergeMessages(older: readonly ChatMessageView[], newer: readonly ChatMessageView[]): ChatMessageView[] {
  const byId = new Map<number, ChatMessageView>();
  for (const m of [...older, ...newer]) byId.set(m.id, m);
  return [...byId.values()].sort((a, b) => a.id - b.id);
}
