/**
 * Internal chat (spec 002 §2.8, §3 Chat and Chat message, §5, §7): conversations between
 * users of one company. A chat has an owner (who alone edits and deletes it) and members (the
 * owner always among them), each with an unread count; its messages are numbered 1, 2, 3… in
 * the order the chat's actor accepted them, so a page is one KV range read.
 *
 * Pure: the schemas the server and the dialog validate with, and the decisions of a post, a
 * read and an edit. The actor (actors/chats/) applies them.
 */
import { z } from "zod";
import { Id } from "./text.ts";

/** The dialog's alerts (spec 002 §5: "an alert asks to fill it" / "to select at least one"). */
export const CHAT_TEXTS = {
  titleRequired: "Por favor, preencha o título da conversa.",
  usersRequired: "Por favor, selecione pelo menos um usuário.",
} as const;

/** Messages per page of GET /chats/{id}/messages (the original client's page). */
export const CHAT_PAGE_SIZE = 20;
/** Chats per page of GET /chats. */
export const CHATS_PAGE_SIZE = 20;
/** Longest title (ours: the spec names none). */
export const CHAT_TITLE_MAX = 100;
/** Longest message (ours: keeps one stored message far below KV's 64 KiB per value). */
export const CHAT_MESSAGE_MAX = 4000;
/**
 * Most members of one chat (ours): an edit writes one membership key per member added or
 * removed, and one handler's writes must fit one KV atomic (1000 mutations).
 */
export const CHAT_MEMBERS_MAX = 300;

/** POST /chats and PUT /chats/{id} body: the title and the chosen users' ids (or `{ id }`s). */
export const ChatInput = z.object({
  title: z.string({ error: CHAT_TEXTS.titleRequired }).trim().min(1, CHAT_TEXTS.titleRequired).max(CHAT_TITLE_MAX),
  users: z.array(z.union([Id, z.object({ id: Id }).transform((u) => u.id)]), { error: CHAT_TEXTS.usersRequired })
    .min(1, CHAT_TEXTS.usersRequired)
    .max(CHAT_MEMBERS_MAX)
    .transform((ids) => [...new Set(ids)]),
});
export type ChatInput = z.infer<typeof ChatInput>;

/** POST /chats/{id}/messages body. A blank message is refused (spec 002 §5: not sent). */
export const ChatMessageInput = z.object({
  message: z.string({ error: "Required" }).trim().min(1, "Required").max(CHAT_MESSAGE_MAX),
});
export type ChatMessageInput = z.infer<typeof ChatMessageInput>;

/**
 * POST /chats/{id}/read body. The spec's client sends its own `userId`; a user only ever
 * clears its own count, so another id is refused (the stricter reading).
 */
export const ChatReadInput = z.object({ userId: Id.optional() });
export type ChatReadInput = z.infer<typeof ChatReadInput>;

/** GET /chats/{id}/messages query. */
export const ChatMessagesQuery = z.object({
  pageNumber: z.coerce.number().int().min(1).catch(1).default(1),
});
export type ChatMessagesQuery = z.infer<typeof ChatMessagesQuery>;

/** One member and its unread count. */
export const ChatMember = z.object({ userId: z.number(), unreads: z.number() });
export type ChatMember = z.infer<typeof ChatMember>;

/** A chat as stored (`v` versions the shape). */
export const Chat = z.object({
  v: z.literal(1).default(1),
  id: z.number(),
  uuid: z.string(),
  companyId: z.number(),
  title: z.string(),
  ownerId: z.number(),
  members: z.array(ChatMember),
  lastMessage: z.string(),
  /** Number of the last message (messages are 1…seq). */
  seq: z.number(),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type Chat = z.infer<typeof Chat>;

/** A chat message as stored; `id` is its number in the chat. */
export const ChatMessage = z.object({
  id: z.number(),
  chatId: z.number(),
  senderId: z.number(),
  message: z.string(),
  createdAt: z.number(),
});
export type ChatMessage = z.infer<typeof ChatMessage>;

/** Member ids of a chat. */
export function memberIds(chat: Pick<Chat, "members">): number[] {
  return chat.members.map((m) => m.userId);
}

/** Whether `userId` belongs to the chat. */
export function isMember(chat: Pick<Chat, "members">, userId: number): boolean {
  return chat.members.some((m) => m.userId === userId);
}

/**
 * The member list of a new or edited chat: the owner first, then the chosen users (the owner
 * chosen again counts once). Existing members keep their unread counts.
 */
export function membersFor(ownerId: number, users: readonly number[], old: readonly ChatMember[] = []): ChatMember[] {
  const unreads = new Map(old.map((m) => [m.userId, m.unreads]));
  const ids = [ownerId, ...users.filter((id) => id !== ownerId)];
  return ids.map((userId) => ({ userId, unreads: unreads.get(userId) ?? 0 }));
}

/** Whether the input names anyone besides the owner (a chat with oneself is refused). */
export function hasOthers(ownerId: number, users: readonly number[]): boolean {
  return users.some((id) => id !== ownerId);
}

/** The chat after `senderId` posted message number `chat.seq + 1`: everyone else has one more unread. */
export function afterPost(chat: Chat, senderId: number, text: string, now: number): { chat: Chat; message: ChatMessage } {
  const id = chat.seq + 1;
  const members = chat.members.map((m) => (m.userId === senderId ? m : { ...m, unreads: m.unreads + 1 }));
  return {
    chat: { ...chat, members, seq: id, lastMessage: text, updatedAt: now },
    message: { id, chatId: chat.id, senderId, message: text, createdAt: now },
  };
}

/** The chat after `userId` read it; the same object when there was nothing to clear. */
export function afterRead(chat: Chat, userId: number): Chat {
  if (!chat.members.some((m) => m.userId === userId && m.unreads > 0)) return chat;
  return { ...chat, members: chat.members.map((m) => (m.userId === userId ? { ...m, unreads: 0 } : m)) };
}

/** Who an edit added and removed. */
export function memberChanges(before: readonly ChatMember[], after: readonly ChatMember[]) {
  const was = new Set(before.map((m) => m.userId));
  const now = new Set(after.map((m) => m.userId));
  return {
    added: [...now].filter((id) => !was.has(id)),
    removed: [...was].filter((id) => !now.has(id)),
  };
}

/**
 * Message numbers of page `pageNumber` (newest page first) of a chat whose last message is
 * `seq`: an inclusive range, or null past the first message. Messages are never removed one
 * by one, so numbers are dense and a page is exact. A page asked for after new messages
 * arrived overlaps the one before it; the client drops what it already has, so nothing is
 * ever skipped.
 */
export function pageRange(seq: number, pageNumber: number, size = CHAT_PAGE_SIZE): { from: number; to: number } | null {
  const to = seq - (pageNumber - 1) * size;
  if (to < 1) return null;
  return { from: Math.max(1, to - size + 1), to };
}

/** A user as chat views show it. */
export interface ChatUserName {
  id: number;
  name: string;
}

/** The API and event view of a chat (spec 002 §3 Chat). */
export function chatView(chat: Chat, names: (id: number) => string, iso: (ms: number) => string) {
  return {
    id: chat.id,
    uuid: chat.uuid,
    title: chat.title,
    ownerId: chat.ownerId,
    lastMessage: chat.lastMessage,
    createdAt: iso(chat.createdAt),
    updatedAt: iso(chat.updatedAt),
    users: chat.members.map((m) => ({
      userId: m.userId,
      unreads: m.unreads,
      user: { id: m.userId, name: names(m.userId) } satisfies ChatUserName,
    })),
  };
}
export type ChatView = ReturnType<typeof chatView>;

/** The API and event view of a message (spec 002 §3 Chat message). */
export function chatMessageView(m: ChatMessage, names: (id: number) => string, iso: (ms: number) => string) {
  return {
    id: m.id,
    chatId: m.chatId,
    senderId: m.senderId,
    sender: { id: m.senderId, name: names(m.senderId) },
    message: m.message,
    createdAt: iso(m.createdAt),
  };
}
export type ChatMessageView = ReturnType<typeof chatMessageView>;

/** The caller's unread count in a chat view (0 when not a member). */
export function unreadsOf(chat: Pick<ChatView, "users">, userId: number): number {
  return chat.users.find((u) => u.userId === userId)?.unreads ?? 0;
}
