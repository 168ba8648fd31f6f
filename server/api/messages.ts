/**
 * Messages of a ticket (spec 000 §7 "Messages"): read a page, send text or media. Edits,
 * deletes, forwards, contact cards and search are in message_actions.ts; link previews in
 * message_preview.ts.
 *
 * Readings chosen where the spec is silent:
 * - `GET /messages/{ticketId}` answers `{ messages, ticket, count, hasMore }`, 20 per page,
 *   page 1 the newest, each page ordered oldest → newest; it resets the ticket's unread
 *   counter. `GET /messages-ghost/{ticketId}` reads the same without resetting it: with the
 *   permission `ticket-options:spy` any visible ticket, and a waiting (pending) one for whoever
 *   may preview it (domain/visibility.ts canPreviewPending: the setting viewppw).
 * - Sending needs an open ticket: a pending ticket must be accepted first and a closed one
 *   reopened (400 `ERR_CREATING_MESSAGE`); a connection that cannot send now is 400
 *   `ERR_WAPP_NOT_INITIALIZED`; blank text without media is 400.
 * - Signature: when the company setting `sendSignMessage` is on and the body does not say
 *   `signMessage: false`, a typed text is sent as `*{user name}:*\n{text}` (media captions
 *   too; a media message with no caption is not signed). With the setting off, never.
 * - Multipart: `medias` (or `medias[]`) files and `body` (one caption, or one per file);
 *   one message per file. JSON `mediaUrl` is ignored (media come as uploads).
 * - A message's `read` flag is what it was stored with (inbound false, the company's true);
 *   what is unread is counted on the ticket (`unreadMessages`), which reading resets, so no
 *   per-message rewrite happens when a conversation is opened.
 */
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { pageOfMessages } from "../../actors/messages/mod.ts";
import { loadLookups, markTicketRead, ticketItem, ticketMissing } from "../../actors/tickets/mod.ts";
import { AppError, forbidden } from "../../domain/errors.ts";
import { MAX_SEND_FILES, MESSAGE_PAGE_SIZE, MessagePageQuery, SendMessageInput } from "../../domain/message.ts";
import { requireAuth } from "../auth/middleware.ts";
import type { AppDeps, AppEnv } from "../deps.ts";
import { idParam, jsonObjectOf, parseQuery, parseWith } from "../http/validate.ts";
import { can, type Principal } from "../../domain/permissions.ts";
import { NO_PERMISSION } from "../../domain/ticket.ts";
import { canPreviewPending } from "../../domain/visibility.ts";
import { sendAgentMessage, type Upload } from "../usecases/message_send.ts";
import { readableTicket, viewsOf, writableTicket } from "./message_access.ts";
import { messageActionRoutes } from "./message_actions.ts";

/** Largest upload accepted by POST /messages/{ticketId} (WhatsApp documents go to 100 MB). */
export const MAX_UPLOAD_BYTES = 100 * 1024 * 1024;

/** One page of a ticket's messages as GET /messages and /messages-ghost answer it. */
async function readPage(deps: AppDeps, who: Principal, ticketId: number, pageNumber: number, ghost: boolean) {
  const { ticket } = await readableTicket(deps, who, ticketId);
  const { messages, hasMore, count } = await pageOfMessages(
    deps.system,
    who.companyId,
    ticketId,
    pageNumber,
    MESSAGE_PAGE_SIZE,
  );
  // Nothing unread (the usual case when a conversation is reopened): no write, no event.
  const current = ghost || ticket.unreadMessages === 0
    ? ticket
    : await markTicketRead(deps.system, who.companyId, ticketId);
  const [views, lookups] = await Promise.all([
    viewsOf(deps, ticket, messages),
    loadLookups(deps.system, who.companyId),
  ]);
  return { messages: views, ticket: ticketItem(current, lookups), count, hasMore };
}

const listOf = (v: unknown): unknown[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/** The multipart body's captions (`body`: one for all files, or one per file). */
const captionsOf = (form: Record<string, unknown>) => listOf(form.body).map((b) => (typeof b === "string" ? b : ""));

/** The multipart body's files (`medias` or `medias[]`), each with its caption. */
function uploads(form: Record<string, unknown>): Upload[] {
  const files = [...listOf(form.medias), ...listOf(form["medias[]"])].filter((f): f is File => f instanceof File);
  if (files.length > MAX_SEND_FILES) {
    const message = `At most ${MAX_SEND_FILES} files`;
    throw new AppError("ERR_VALIDATION", { status: 400, message: `medias: ${message}`, fields: { medias: message } });
  }
  const captions = captionsOf(form);
  return files.map((file, i) => ({
    file,
    caption: (captions[i] ?? (files.length === 1 ? captions[0] : undefined) ?? "").trim(),
  }));
}

/** The `/messages` sub-app. */
export function messageRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use(requireAuth());
  app.route("/", messageActionRoutes());

  app.get("/:ticketId", async (c) => {
    const ticketId = idParam(c, "ticketId", () => ticketMissing(c.req.param("ticketId")));
    const { pageNumber } = parseQuery(c, MessagePageQuery);
    return c.json(await readPage(c.get("deps"), c.get("principal"), ticketId, pageNumber, false));
  });

  app.post(
    "/:ticketId",
    bodyLimit({
      maxSize: MAX_UPLOAD_BYTES,
      onError: () => {
        throw new AppError("ERR_VALIDATION", { status: 413, message: "Upload too large (max 100 MB)" });
      },
    }),
    async (c) => {
      const ticketId = idParam(c, "ticketId", () => ticketMissing(c.req.param("ticketId")));
      // Found in the caller's company (and writable) before the body is read: another company's id is 404.
      const writable = await writableTicket(c.get("deps"), c.get("principal"), ticketId);
      const type = c.req.header("content-type") ?? "";
      let raw: Record<string, unknown> = {};
      let files: Upload[] = [];
      if (type.includes("multipart/form-data")) {
        const form = await c.req.parseBody({ all: true });
        files = uploads(form);
        raw = { ...form, body: captionsOf(form)[0] ?? "" };
        delete raw.medias;
        delete raw["medias[]"];
      } else {
        raw = jsonObjectOf(await c.req.text());
      }
      const input = parseWith(SendMessageInput, raw);
      const views = await sendAgentMessage(c.get("deps"), c.get("principal"), writable, input, files);
      return c.json({ message: views[views.length - 1], messages: views });
    },
  );
  return app;
}

/**
 * The `/messages-ghost` sub-app: reading without resetting unread (supervisors' spy, and the
 * preview of a waiting ticket where viewppw allows it).
 */
export function ghostMessageRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use(requireAuth());
  app.get("/:ticketId", async (c) => {
    const ticketId = idParam(c, "ticketId", () => ticketMissing(c.req.param("ticketId")));
    const { pageNumber } = parseQuery(c, MessagePageQuery);
    const deps = c.get("deps");
    const who = c.get("principal");
    if (!can(who, "ticket-options:spy")) {
      const { ticket, settings } = await readableTicket(deps, who, ticketId);
      if (ticket.status !== "pending" || !canPreviewPending(who, settings)) throw forbidden(NO_PERMISSION);
    }
    return c.json(await readPage(deps, who, ticketId, pageNumber, true));
  });
  return app;
}
