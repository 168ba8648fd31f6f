/**
 * Actions on messages (spec 000 §7): edit (`POST /messages/edit/{id}`, `PUT /messages/{id}`),
 * delete (`DELETE /messages/delete`), forward (`POST /messages/forward/send`), contact cards
 * (`POST /messages/sendContact/{ticketId}`), search in a ticket
 * (`GET /messages/searchMessage/{ticketId}` → `{ messagesIds }`, newest first) and link
 * previews (`GET /messages/metadados?url`).
 *
 * Readings: only the company's own messages (fromMe) can be edited, as on WhatsApp; any
 * message can be deleted (the channel decides what the provider allows, `ERR_DELETE_WAPP_MSG`).
 * A forward goes to each chosen contact's open or pending ticket on the chosen connection (a
 * new pending ticket when none), as the agent's messages; each copy gets its own media file.
 */
import { type Context, Hono } from "hono";
import { getContact } from "../../actors/contacts/mod.ts";
import { agentChange, getMessage, sendOutgoing } from "../../actors/messages/mod.ts";
import { allMessages } from "../../actors/messages/store.ts";
import { getTicket, openTicketForInbound, ticketMissing } from "../../actors/tickets/mod.ts";
import { AppError, notFound } from "../../domain/errors.ts";
import {
  DeleteMessagesInput,
  EditMessageInput,
  editWindowOpen,
  ForwardMessagesInput,
  LinkPreviewQuery,
  type Message,
  MessageIdText,
  SearchMessageQuery,
  SendContactInput,
  vcard,
  wordsOf,
} from "../../domain/message.ts";
import { foldText } from "../../domain/contact.ts";
import type { Principal } from "../../domain/permissions.ts";
import type { AppDeps, AppEnv } from "../deps.ts";
import { idParam, parseBody, parseQuery } from "../http/validate.ts";
import { assertCanSend, mediaCopy } from "../usecases/message_send.ts";
import { readableTicket, viewsOf, writableTicket } from "./message_access.ts";
import { linkPreview } from "./message_preview.ts";

const messageMissing = (id: string) => notFound("ERR_NO_MESSAGE_FOUND", `Message ${id} does not exist`);

/** A message of the company that `who` may change, with its ticket. */
async function writableMessage(deps: AppDeps, who: Principal, id: string) {
  if (!MessageIdText.safeParse(id).success) throw messageMissing(id);
  const message = await getMessage(deps.kv, who.companyId, id);
  if (!message) throw messageMissing(id);
  const { ticket } = await writableTicket(deps, who, message.ticketId);
  return { message, ticket };
}

async function edit(c: Context<AppEnv>) {
  const deps = c.get("deps");
  const id = c.req.param("id") ?? "";
  const { message, ticket } = await writableMessage(deps, c.get("principal"), id);
  // Judged once the message is found in the caller's company: another company's id is 404.
  const { body } = await parseBody(c, EditMessageInput);
  if (!message.fromMe) {
    throw new AppError("ERR_VALIDATION", {
      status: 400,
      message: `Message ${id} was not sent by the company`,
    });
  }
  if (message.isDeleted) {
    throw new AppError("ERR_VALIDATION", { status: 400, message: `Message ${id} was deleted` });
  }
  if (message.providerId !== null && !editWindowOpen(message.createdAt, Date.now())) {
    throw new AppError("ERR_VALIDATION", {
      status: 400,
      message: `Message ${id} was sent more than 15 minutes ago: WhatsApp no longer accepts edits`,
    });
  }
  const next = await agentChange(deps, message, { type: "edit", body });
  const [view] = await viewsOf(deps, ticket, [next]);
  return view;
}

/** The `/messages` actions sub-app (mounted before the `/:ticketId` routes). */
export function messageActionRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.get("/metadados", async (c) => {
    const { url } = parseQuery(c, LinkPreviewQuery);
    const preview = await linkPreview(url, { allowPrivate: c.get("deps").config.linkPreviewAllowPrivate === true });
    // A page's preview changes seldom: the browser keeps it for a day (the islands also cache it per page).
    c.header("cache-control", "private, max-age=86400");
    return c.json(preview);
  });

  app.get("/searchMessage/:ticketId", async (c) => {
    const deps = c.get("deps");
    const who = c.get("principal");
    const ticketId = idParam(c, "ticketId", () => ticketMissing(c.req.param("ticketId")));
    const { searchedTerm } = parseQuery(c, SearchMessageQuery);
    await readableTicket(deps, who, ticketId);
    const needle = foldText(searchedTerm);
    if (needle === "") return c.json({ messagesIds: [] });
    const words = [...wordsOf(searchedTerm)];
    const found = (await allMessages(deps.kv, who.companyId, ticketId)).filter((m) => {
      if (m.isDeleted) return false;
      const text = foldText(m.body);
      return text.includes(needle) || (words.length > 1 && words.every((w) => text.includes(w)));
    });
    return c.json({ messagesIds: found.reverse().map((m) => m.id) });
  });

  app.post("/edit/:id", async (c) => {
    return c.json(await edit(c));
  });

  app.put("/:id{[0-9]{16}-[0-9]+}", async (c) => {
    return c.json(await edit(c));
  });

  app.delete("/delete", async (c) => {
    const deps = c.get("deps");
    const who = c.get("principal");
    const { messages } = await parseBody(c, DeleteMessagesInput);
    const found = await Promise.all(messages.map((id) => writableMessage(deps, who, id)));
    const views = [];
    for (const { message, ticket } of found) {
      const next = await agentChange(deps, message, { type: "delete" });
      views.push(...await viewsOf(deps, ticket, [next]));
    }
    return c.json({ messages: views });
  });

  app.post("/forward/send", async (c) => {
    const deps = c.get("deps");
    const who = c.get("principal");
    const input = await parseBody(c, ForwardMessagesInput);
    const sources: Message[] = [];
    for (const id of input.messages) {
      const message = await getMessage(deps.kv, who.companyId, id);
      if (!message) throw messageMissing(id);
      await readableTicket(deps, who, message.ticketId);
      sources.push(message);
    }
    sources.sort((a, b) => (a.id < b.id ? -1 : 1));
    const whatsappId = input.whatsappId ??
      (await getTicket(deps.system, who.companyId, sources[0].ticketId))?.whatsappId;
    if (!whatsappId || !await deps.outbound.ready(who.companyId, whatsappId)) {
      throw new AppError("ERR_WAPP_NOT_INITIALIZED", {
        status: 400,
        message: `Connection ${whatsappId ?? "(none)"} is not connected`,
      });
    }
    const contacts = [];
    for (const id of input.contacts) {
      const contact = await getContact(deps.system, who.companyId, id);
      if (!contact) throw notFound("ERR_NO_CONTACT_FOUND", `Contact ${id} does not exist`);
      contacts.push(contact);
    }
    const tickets: number[] = [];
    let sent = 0;
    for (const contact of contacts) {
      const { ticket } = await openTicketForInbound(deps.system, who.companyId, {
        contactId: contact.id,
        whatsappId,
        isGroup: contact.isGroup,
        fromMe: true,
        ...(input.queue ? { queueId: input.queue } : {}),
      });
      tickets.push(ticket.id);
      for (const source of sources) {
        // Each copy owns its media file; the original's type is kept (a voice note stays one).
        const media = source.mediaUrl
          ? (await mediaCopy(deps, who.companyId, source.mediaUrl, source.mediaName ?? source.mediaUrl, source.mimetype ?? "")).media
          : null;
        await sendOutgoing(deps, ticket, { body: source.body, mediaType: source.mediaType, media, userId: who.id }, contact);
        sent++;
      }
    }
    return c.json({ tickets, sent });
  });

  app.post("/sendContact/:ticketId", async (c) => {
    const deps = c.get("deps");
    const who = c.get("principal");
    const ticketId = idParam(c, "ticketId", () => ticketMissing(c.req.param("ticketId")));
    const { ticket } = await writableTicket(deps, who, ticketId);
    const { contactsId } = await parseBody(c, SendContactInput);
    const cards = [];
    for (const id of contactsId) {
      const contact = await getContact(deps.system, who.companyId, id);
      if (!contact) throw notFound("ERR_NO_CONTACT_FOUND", `Contact ${id} does not exist`);
      cards.push(contact);
    }
    await assertCanSend(deps, ticket);
    const views = [];
    for (const card of cards) {
      const { view } = await sendOutgoing(deps, ticket, {
        body: vcard(card.name, card.number),
        mediaType: "contactMessage",
        userId: who.id,
      });
      views.push(view);
    }
    return c.json({ messages: views });
  });

  return app;
}
