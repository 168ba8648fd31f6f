/** Operations of the internal chat (spec 002 §2.8, §3, §7): members only, plan flag useInternalChat. */
import { z } from "zod";
import { ChatInput, ChatMessageInput, ChatMessagesQuery, ChatReadInput } from "../../domain/chat.ts";
import { SearchPage } from "../../domain/paging.ts";
import { area, type Operation } from "./operation.ts";
import { MessageReply } from "./shapes.ts";

const chats = area("Internal chat");
const access = "plan flag useInternalChat; members only (another chat answers 404)";
const errors = ["ERR_PLAN_FEATURE", "ERR_NOT_FOUND"] as const;

/** A chat as the API shows it. */
const ChatView = z.object({
  id: z.number().int(),
  uuid: z.string(),
  title: z.string(),
  ownerId: z.number().int(),
  lastMessage: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  users: z.array(z.object({
    userId: z.number().int(),
    unreads: z.number().int(),
    user: z.object({ id: z.number().int(), name: z.string() }),
  })),
});

/** A chat message as the API shows it. */
const ChatMessageView = z.object({
  id: z.number().int().describe("The message's number in its chat (1, 2, 3…)"),
  chatId: z.number().int(),
  senderId: z.number().int(),
  sender: z.object({ id: z.number().int(), name: z.string() }),
  message: z.string(),
  createdAt: z.string(),
});

const ChatList = z.object({
  records: z.array(ChatView),
  count: z.number().int(),
  hasMore: z.boolean(),
  unreads: z.number().int().describe("The caller's unread messages over all its chats (the menu badge)"),
});
const ChatMessagePage = z.object({ records: z.array(ChatMessageView), count: z.number().int(), hasMore: z.boolean() });

/** The chat endpoints. */
export const CHAT_OPERATIONS: Operation[] = [
  chats.get("/chats", "The caller's chats, most recent first, 20 a page", { query: { SearchPage }, response: { ChatList }, access, errors }),
  chats.get("/chats/:id", "One chat of the caller, by id or uuid", { response: { ChatView }, access, errors }),
  chats.post("/chats", "Start a chat with the chosen users (the caller owns it)", {
    body: { ChatInput },
    response: { ChatView },
    access,
    example: { title: "Plantão de sábado", users: [2, 3] },
    errors: ["ERR_PLAN_FEATURE", "ERR_NO_USER_FOUND"],
  }),
  chats.put("/chats/:id", "Change a chat's title and members (owner only)", {
    body: { ChatInput },
    response: { ChatView },
    access: `${access}; owner only (403)`,
    example: { title: "Plantão de domingo", users: [2] },
    errors: ["ERR_PLAN_FEATURE", "ERR_NOT_FOUND", "ERR_NO_PERMISSION", "ERR_NO_USER_FOUND"],
  }),
  chats.delete("/chats/:id", "Delete a chat and its messages (owner only)", {
    response: { MessageReply },
    access: `${access}; owner only (403)`,
    errors: ["ERR_PLAN_FEATURE", "ERR_NOT_FOUND", "ERR_NO_PERMISSION"],
  }),
  chats.get("/chats/:id/messages", "A page of a chat's messages (page 1 is the newest), oldest first within the page", {
    query: { ChatMessagesQuery },
    response: { ChatMessagePage },
    access,
    errors,
  }),
  chats.post("/chats/:id/messages", "Post a message (a blank one is refused)", {
    body: { ChatMessageInput },
    response: { ChatMessageView },
    access,
    example: { message: "Bom dia, equipe!" },
    errors,
  }),
  chats.post("/chats/:id/read", "Clear the caller's unread count of a chat", {
    body: { ChatReadInput },
    response: { ChatView },
    access,
    example: {},
    errors: ["ERR_PLAN_FEATURE", "ERR_NOT_FOUND", "ERR_NO_PERMISSION"],
  }),
];
