/**
 * The WhatsApp Cloud API's own endpoints (issue #22), for the composer of a ticket whose
 * connection is an official number:
 * - GET /whatsapp/{id}/templates: the approved templates of the connection's business
 *   account (Graph GET /{waba-id}/message_templates), `[{ name, language, category, status,
 *   body, params }]`; 400 `ERR_VALIDATION` for a connection of another provider.
 * - GET /messages/{ticketId}/window: `{ provider, open, expiresAt, lastInboundAt }` — whether
 *   free text may be sent now (24 h after the customer's last message); always open for
 *   other providers (expiresAt null).
 * - POST /messages/{ticketId}/template `{ name, language, params }`: sends an approved
 *   template (allowed outside the window), stored as the template's text with the
 *   parameters in place; 404 `ERR_NOT_FOUND` for a template that is not approved, 400
 *   `ERR_VALIDATION` when the parameter count differs. Same refusals as any send (open
 *   ticket, connected connection, who may write in it).
 * And `checkCloudCredentials`, which POST/PUT /whatsapp call before saving Cloud API credentials.
 * Free text sent with POST /messages/{ticketId} outside the window fails on the message
 * (`failed.code` `ERR_CLOUDAPI_WINDOW_CLOSED`); the composer reads /window to offer a template first.
 */
import { Hono } from "hono";
import { getContact } from "../../actors/contacts/mod.ts";
import { sendOutgoing } from "../../actors/messages/mod.ts";
import { ticketMissing } from "../../actors/tickets/mod.ts";
import { whatsapps } from "../../actors/whatsapps/collection.ts";
import { AppError, notFound } from "../../domain/errors.ts";
import { TemplateSendInput, type Whatsapp, type WhatsappInput } from "../../domain/whatsapp.ts";
import { requireAuth } from "../auth/middleware.ts";
import { CloudApiAdapter, lastInboundAt, refusedCredentials } from "../channels/cloudapi.ts";
import { DEFAULT_GRAPH_API_URL } from "../config.ts";
import { renderTemplate, windowOf } from "../channels/cloudapi_map.ts";
import type { AppDeps, AppEnv } from "../deps.ts";
import { idParam, parseBody } from "../http/validate.ts";
import { assertCanSend } from "../usecases/message_send.ts";
import { readableTicket, writableTicket } from "./message_access.ts";

const notCloud = (w: Whatsapp) =>
  new AppError("ERR_VALIDATION", { status: 400, message: `Connection ${w.id} is not a WhatsApp Cloud API connection` });

/** The Cloud API adapter of a connection (started when not running), or 400 for another provider. */
async function cloudAdapter(deps: AppDeps, w: Whatsapp): Promise<CloudApiAdapter> {
  if (w.provider !== "cloudapi") throw notCloud(w);
  const live = deps.channels.get(w.companyId, w.id) ?? await deps.channels.start(w.companyId, w.id);
  if (!(live.adapter instanceof CloudApiAdapter)) throw notCloud(w);
  return live.adapter;
}

/**
 * Before POST/PUT /whatsapp stores a Cloud API connection with a new phone number id or
 * access token: the Graph API must accept them, else 400 `ERR_VALIDATION` naming the refused
 * field and Meta's reason (so the admin learns why at once, not from a DISCONNECTED row).
 */
export async function checkCloudCredentials(deps: AppDeps, input: WhatsappInput, old?: Whatsapp): Promise<void> {
  if ((input.provider ?? old?.provider) !== "cloudapi" || !input.cloudPhoneNumberId) return;
  const token = input.cloudAccessToken || old?.cloudAccessToken || "";
  if (!token) return; // settleCloudApi names the missing token
  if (old && old.cloudPhoneNumberId === input.cloudPhoneNumberId && old.cloudAccessToken === token) return;
  const fields = await refusedCredentials(deps.config.graphApiUrl ?? DEFAULT_GRAPH_API_URL, input.cloudPhoneNumberId, token);
  if (fields) throw new AppError("ERR_VALIDATION", { status: 400, message: Object.values(fields)[0], fields });
}

/** GET /whatsapp/{id}/templates, mounted at `/whatsapp`. */
export function cloudApiConnectionRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  // Per route, not app.use: this sub-app shares its mount point with the connections API.
  app.get("/:id/templates", requireAuth(), async (c) => {
    const deps = c.get("deps");
    const who = c.get("principal");
    const id = idParam(c, "id", () => notFound("ERR_NO_WAPP_FOUND", `Connection ${c.req.param("id")} does not exist`));
    const record = await whatsapps.in(deps.system, who.companyId).get(id);
    if (!record) throw notFound("ERR_NO_WAPP_FOUND", `Connection ${id} does not exist`);
    return c.json(await (await cloudAdapter(deps, record)).templates());
  });
  return app;
}

/** GET /messages/{ticketId}/window and POST /messages/{ticketId}/template, mounted at `/messages`. */
export function cloudApiMessageRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  // Per route, not app.use: this sub-app shares its mount point with the messages API.
  app.get("/:ticketId/window", requireAuth(), async (c) => {
    const deps = c.get("deps");
    const ticketId = idParam(c, "ticketId", () => ticketMissing(c.req.param("ticketId")));
    const { ticket } = await readableTicket(deps, c.get("principal"), ticketId);
    const record = ticket.whatsappId === null ? undefined : await whatsapps.in(deps.system, ticket.companyId).get(ticket.whatsappId);
    if (!record || record.provider !== "cloudapi" || ticket.isGroup) {
      return c.json({ provider: record?.provider ?? null, open: true, expiresAt: null, lastInboundAt: null });
    }
    const contact = await getContact(deps.system, ticket.companyId, ticket.contactId);
    const last = contact ? await lastInboundAt(deps.kv, ticket.companyId, record.id, contact.number) : null;
    return c.json({ provider: record.provider, ...windowOf(last, Date.now()), lastInboundAt: last });
  });

  app.post("/:ticketId/template", requireAuth(), async (c) => {
    const deps = c.get("deps");
    const who = c.get("principal");
    const ticketId = idParam(c, "ticketId", () => ticketMissing(c.req.param("ticketId")));
    const { ticket } = await writableTicket(deps, who, ticketId);
    const input = await parseBody(c, TemplateSendInput);
    await assertCanSend(deps, ticket);
    const record = await whatsapps.in(deps.system, ticket.companyId).get(ticket.whatsappId!);
    if (!record) throw notFound("ERR_NO_WAPP_FOUND", `Connection ${ticket.whatsappId} does not exist`);
    const templates = await (await cloudAdapter(deps, record)).templates();
    const found = templates.find((t) => t.name === input.name && t.language === input.language);
    if (!found) {
      throw new AppError("ERR_NOT_FOUND", {
        status: 404,
        message: `No approved template ${input.name} (${input.language})`,
        fields: { name: "No approved template with this name and language" },
      });
    }
    if (input.params.length !== found.params) {
      throw new AppError("ERR_VALIDATION", {
        status: 400,
        message: `Template ${found.name} takes ${found.params} parameters, ${input.params.length} given`,
        fields: { params: `Expected ${found.params}` },
      });
    }
    const { view } = await sendOutgoing(deps, ticket, {
      body: renderTemplate(found.body, input.params) || found.name,
      userId: who.id,
      template: { name: found.name, language: found.language, params: input.params },
    });
    return c.json({ message: view });
  });
  return app;
}
