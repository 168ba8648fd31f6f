/**
 * Internal chat (spec 002 §2.8, §5, §6, §7): GET/POST /chats, GET/PUT/DELETE /chats/{id}
 * (id or uuid for the GET), GET/POST /chats/{id}/messages (20 a page, hasMore), POST
 * /chats/{id}/read. Every route needs the plan's useInternalChat (403 ERR_PLAN_FEATURE). A user sees only the chats it is a
 * member of: any other id answers 404, whether it is another company's, a deleted one or one
 * the caller is not in. Only the owner edits and deletes (403 for the other members).
 * Writes find the chat before they judge the body (tests/tenant_write_order_test.ts).
 */
import { type Context, Hono } from "hono";
import {
  chatMessagesPage,
  chatMissing,
  chatOf,
  createChat,
  memberChat,
  userChats,
  viewsOf,
} from "../../actors/chats/mod.ts";
import { getCompanyUser } from "../../actors/platform/lookup.ts";
import type { ActorSystem } from "../../actors/_runtime/system.ts";
import {
  CHAT_TEXTS,
  ChatInput,
  ChatMessageInput,
  ChatMessagesQuery,
  ChatReadInput,
  CHATS_PAGE_SIZE,
  hasOthers,
} from "../../domain/chat.ts";
import { AppError, forbidden, notFound } from "../../domain/errors.ts";
import { matchesSearch, paginate, SearchPage } from "../../domain/paging.ts";
import type { Principal } from "../../domain/permissions.ts";
import { requireAuth } from "../auth/middleware.ts";
import { requirePlan } from "../auth/plan_gate.ts";
import type { AppEnv } from "../deps.ts";
import { idParam, parseBody, parseQuery } from "../http/validate.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Checks the chosen users: users of the caller's company, someone besides the owner. */
async function checkUsers(system: ActorSystem, who: Principal, ownerId: number, input: ChatInput): Promise<void> {
  if (!hasOthers(ownerId, input.users)) {
    throw new AppError("ERR_VALIDATION", {
      status: 400,
      message: CHAT_TEXTS.usersRequired,
      fields: { users: CHAT_TEXTS.usersRequired },
    });
  }
  for (const id of input.users) {
    if (!await getCompanyUser(system, who.companyId, id)) {
      throw notFound("ERR_NO_USER_FOUND", `User ${id} does not exist`);
    }
  }
}

/** The chat routes, mounted at `/chats`. */
export function chatRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const guard = [requireAuth(), requirePlan("useInternalChat")] as const;

  /** The path's chat if the caller is a member of it; the 404 otherwise. */
  async function found(c: Context<AppEnv>) {
    const id = idParam(c, "id", () => chatMissing(c.req.param("id") ?? ""));
    const who = c.get("principal");
    const chat = await memberChat(c.get("deps").system, who.companyId, id, who.id);
    if (!chat) throw chatMissing(id);
    return chat;
  }

  app.get("/", ...guard, async (c) => {
    const query = parseQuery(c, SearchPage);
    const { system } = c.get("deps");
    const who = c.get("principal");
    const mine = await userChats(system, who.companyId, who.id);
    // The menu's badge: the caller's unread messages over all its chats, not only this page's.
    const unreads = mine.reduce((sum, chat) => sum + (chat.members.find((m) => m.userId === who.id)?.unreads ?? 0), 0);
    const hits = mine.filter((chat) => matchesSearch(query.searchParam, chat.title))
      .sort((a, b) => b.updatedAt - a.updatedAt || b.id - a.id);
    const page = paginate(hits, query.pageNumber, CHATS_PAGE_SIZE);
    return c.json({ records: await viewsOf(system, page.rows), count: page.count, hasMore: page.hasMore, unreads });
  });

  // The page's address names a chat by its uuid (/chats/:id?, spec 002 §2.1): this read takes either.
  app.get("/:id", ...guard, async (c) => {
    const param = c.req.param("id");
    const { system } = c.get("deps");
    const who = c.get("principal");
    const chat = UUID.test(param)
      ? (await userChats(system, who.companyId, who.id)).find((x) => x.uuid === param.toLowerCase())
      : await found(c);
    if (!chat) throw chatMissing(param);
    return c.json((await viewsOf(system, [chat]))[0]);
  });

  app.post("/", ...guard, async (c) => {
    const input = await parseBody(c, ChatInput);
    const { system } = c.get("deps");
    const who = c.get("principal");
    await checkUsers(system, who, who.id, input);
    return c.json(await createChat(system, who.companyId, { ownerId: who.id, title: input.title, users: input.users }));
  });

  app.put("/:id", ...guard, async (c) => {
    const chat = await found(c);
    const who = c.get("principal");
    if (chat.ownerId !== who.id) throw forbidden(`Only the owner edits chat ${chat.id}`);
    const input = await parseBody(c, ChatInput);
    const { system } = c.get("deps");
    await checkUsers(system, who, chat.ownerId, input);
    return c.json(await chatOf(system, who.companyId, chat.id).ask("update", { by: who.id, title: input.title, users: input.users }));
  });

  app.delete("/:id", ...guard, async (c) => {
    const chat = await found(c);
    const who = c.get("principal");
    await chatOf(c.get("deps").system, who.companyId, chat.id).ask("remove", { by: who.id });
    return c.json({ message: "Chat deleted" });
  });

  app.get("/:id/messages", ...guard, async (c) => {
    const query = parseQuery(c, ChatMessagesQuery);
    const chat = await found(c);
    return c.json(await chatMessagesPage(c.get("deps").system, chat, query.pageNumber));
  });

  app.post("/:id/messages", ...guard, async (c) => {
    const chat = await found(c);
    const input = await parseBody(c, ChatMessageInput);
    const who = c.get("principal");
    return c.json(await chatOf(c.get("deps").system, who.companyId, chat.id).ask("post", { by: who.id, message: input.message }));
  });

  app.post("/:id/read", ...guard, async (c) => {
    const chat = await found(c);
    const input = await parseBody(c, ChatReadInput);
    const who = c.get("principal");
    if (input.userId !== undefined && input.userId !== who.id) throw forbidden("A user marks only its own chats read");
    return c.json(await chatOf(c.get("deps").system, who.companyId, chat.id).ask("read", { by: who.id }));
  });

  return app;
}
