/**
 * One internal chat (id `"{companyId}:{chatId}"`): its record (title, owner, members and
 * their unread counts, the last message and the number of the last message) in memory, one
 * KV key; its messages one KV key each, written by this mailbox only, so numbers never
 * collide and an unread count never misses a message. Membership keys (keys.ts) are written
 * in the same commit as the record, so GET /chats sees a chat exactly when its record does.
 *
 * Events go to members only (scope `users`): `company-{id}-chat-user-{userId}` create/update
 * for each member's list, `company-{id}-chat-{chatId}` new-message/update for an open chat,
 * and `company-{id}-chat` new-message/update/delete for lists and the menu badge. A member an
 * edit removes gets a delete (it may no longer see the chat).
 *
 * Deleting a chat drops its record and memberships at once and its messages afterwards,
 * 500 per turn of a `purge` actor timer, because one commit holds at most 1000 writes.
 */
import { defineActor } from "../_runtime/actor.ts";
import type { ActorContext } from "../_runtime/actor.ts";
import { companyChannel } from "../../domain/events.ts";
import {
  afterPost,
  afterRead,
  type Chat,
  chatMessageView,
  type ChatMessageView,
  chatView,
  type ChatView,
  isMember,
  memberChanges,
  memberIds,
  membersFor,
} from "../../domain/chat.ts";
import { forbidden, notFound } from "../../domain/errors.ts";
import { isoText } from "../../domain/iso_date.ts";
import { chatKey, chatMemberKey, chatMessageKey, chatMessagesPrefix } from "./keys.ts";
import { userNames } from "./names.ts";

/** The actor's state: the chat, or null before creation and after deletion. */
export interface ChatState {
  companyId: number;
  chatId: number;
  chat: Chat | null;
}

type Ctx = ActorContext<ChatState>;

/** Messages deleted per turn of the purge timer. */
const PURGE_BATCH = 500;

/** The 404 of a chat that does not exist in the caller's company or that the caller is not in. */
export function chatMissing(id: number | string) {
  return notFound("ERR_NOT_FOUND", `Chat ${id} does not exist`);
}

/** The chat if `userId` is a member; otherwise the 404 (non-members cannot tell it exists). */
function memberChat(ctx: Ctx, userId: number): Chat {
  const chat = ctx.state.chat;
  if (!chat || !isMember(chat, userId)) throw chatMissing(ctx.state.chatId);
  return chat;
}

/** The chat if `userId` owns it: 404 for non-members, 403 for members (spec 002 §6). */
function ownedChat(ctx: Ctx, userId: number): Chat {
  const chat = memberChat(ctx, userId);
  if (chat.ownerId !== userId) throw forbidden(`Only the owner edits or deletes chat ${chat.id}`);
  return chat;
}

/** Emits `data` on `company-{id}-{suffix}` to `userIds`. */
function emitTo(ctx: Ctx, suffix: string, data: unknown, userIds: number[]): void {
  if (userIds.length === 0) return;
  const { companyId } = ctx.state;
  ctx.emit({ companyId, channel: companyChannel(companyId, suffix), data, scope: { kind: "users", userIds } });
}

/** Emits `data` on each member's own channel `company-{id}-chat-user-{userId}`. */
function emitPerUser(ctx: Ctx, data: unknown, userIds: number[]): void {
  for (const userId of userIds) emitTo(ctx, `chat-user-${userId}`, data, [userId]);
}

async function view(ctx: Ctx, chat: Chat): Promise<ChatView> {
  return chatView(chat, await userNames(ctx.system), isoText);
}

/** Stores the record (and state) of a live chat. */
function store(ctx: Ctx, chat: Chat): void {
  ctx.state.chat = chat;
  ctx.set(chatKey(chat.companyId, chat.id), chat);
}

export const chatActor = defineActor({
  kind: "chat",
  async load(kv, id): Promise<ChatState> {
    const [companyId, chatId] = id.split(":").map(Number);
    const entry = await kv.get<Chat>(chatKey(companyId, chatId));
    return { companyId, chatId, chat: entry.value };
  },
  handlers: {
    /** Creates the chat with `ownerId` and the chosen users as members. */
    async create(ctx, arg: { ownerId: number; title: string; users: number[]; uuid: string }): Promise<ChatView> {
      const { companyId, chatId } = ctx.state;
      if (ctx.state.chat) throw new Error(`Chat ${companyId}:${chatId} exists already`);
      const chat: Chat = {
        v: 1,
        id: chatId,
        uuid: arg.uuid,
        companyId,
        title: arg.title,
        ownerId: arg.ownerId,
        members: membersFor(arg.ownerId, arg.users),
        lastMessage: "",
        seq: 0,
        createdAt: ctx.now,
        updatedAt: ctx.now,
      };
      store(ctx, chat);
      for (const userId of memberIds(chat)) ctx.set(chatMemberKey(companyId, userId, chatId), true);
      const record = await view(ctx, chat);
      emitPerUser(ctx, { action: "create", record }, memberIds(chat));
      return record;
    },

    /** The owner changes the title and the members (removed members lose the chat). */
    async update(ctx, arg: { by: number; title: string; users: number[] }): Promise<ChatView> {
      const old = ownedChat(ctx, arg.by);
      const members = membersFor(old.ownerId, arg.users, old.members);
      const { added, removed } = memberChanges(old.members, members);
      const chat: Chat = { ...old, title: arg.title, members, updatedAt: ctx.now };
      store(ctx, chat);
      for (const userId of added) ctx.set(chatMemberKey(chat.companyId, userId, chat.id), true);
      for (const userId of removed) ctx.delete(chatMemberKey(chat.companyId, userId, chat.id));
      const record = await view(ctx, chat);
      const everyone = memberIds(chat);
      emitPerUser(ctx, { action: "update", record }, everyone.filter((id) => !added.includes(id)));
      emitPerUser(ctx, { action: "create", record }, added);
      emitTo(ctx, `chat-${chat.id}`, { action: "update", chat: record }, everyone);
      emitTo(ctx, "chat", { action: "update", chat: record }, everyone);
      emitTo(ctx, "chat", { action: "delete", id: chat.id }, removed);
      return record;
    },

    /** The owner deletes the chat; its messages go on the purge timer. */
    remove(ctx, arg: { by: number }): { id: number } {
      const chat = ownedChat(ctx, arg.by);
      ctx.state.chat = null;
      ctx.delete(chatKey(chat.companyId, chat.id));
      for (const userId of memberIds(chat)) ctx.delete(chatMemberKey(chat.companyId, userId, chat.id));
      if (chat.seq > 0) ctx.setTimer("purge", ctx.now, "purge");
      emitTo(ctx, "chat", { action: "delete", id: chat.id }, memberIds(chat));
      return { id: chat.id };
    },

    /** A member posts a message: every other member has one more unread. */
    async post(ctx, arg: { by: number; message: string }): Promise<ChatMessageView> {
      const old = memberChat(ctx, arg.by);
      const { chat, message } = afterPost(old, arg.by, arg.message, ctx.now);
      store(ctx, chat);
      ctx.set(chatMessageKey(chat.companyId, chat.id, message.id), message);
      const names = await userNames(ctx.system);
      const record = chatView(chat, names, isoText);
      const newMessage = chatMessageView(message, names, isoText);
      const data = { action: "new-message", newMessage, chat: record };
      emitTo(ctx, `chat-${chat.id}`, data, memberIds(chat));
      emitTo(ctx, "chat", data, memberIds(chat));
      return newMessage;
    },

    /** A member has read the chat: its unread count goes to 0. */
    async read(ctx, arg: { by: number }): Promise<ChatView> {
      const old = memberChat(ctx, arg.by);
      const chat = afterRead(old, arg.by);
      if (chat === old) return await view(ctx, chat);
      store(ctx, chat);
      const record = await view(ctx, chat);
      emitTo(ctx, `chat-${chat.id}`, { action: "update", chat: record }, memberIds(chat));
      emitTo(ctx, "chat", { action: "update", chat: record }, memberIds(chat));
      return record;
    },

    /** Timer: deletes the next batch of a deleted chat's messages, re-arming while any are left. */
    async purge(ctx): Promise<void> {
      if (ctx.state.chat) return;
      const { companyId, chatId } = ctx.state;
      const keys = await Array.fromAsync(
        ctx.kv.list({ prefix: chatMessagesPrefix(companyId, chatId) }, { limit: PURGE_BATCH }),
        (e) => e.key,
      );
      for (const key of keys) ctx.delete(key);
      if (keys.length === PURGE_BATCH) ctx.setTimer("purge", ctx.now, "purge");
    },
  },
});
