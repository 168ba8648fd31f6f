/**
 * The external messages API (spec 001 §2.17, §7; DESIGN §4): `POST /api/messages/send`,
 * authenticated by a connection's token, for other systems to send WhatsApp messages through
 * the product. JSON `{ number, body, openTicket, queueId }` (or the same fields as a
 * urlencoded form) sends a text; multipart with
 * `medias` (several files) and one `caption` (or `body`) per file sends media.
 *
 * The checks, in order, each with its catalogue code:
 * - 401 `ERR_SESSION_EXPIRED`: no bearer, or no connection with that token (an empty token
 *   never matches, so a connection without one cannot be used);
 * - 403 `ERR_PLAN_FEATURE`: the company's plan lacks useExternalApi (the spec's upgrade text);
 * - 402 `ERR_SUBSCRIPTION_EXPIRED`: the company is past its grace period, as for its users;
 * - 429 `ERR_TOO_MANY_ATTEMPTS` with Retry-After: the token's rate (external_messages_state.ts);
 * - 400 `ERR_VALIDATION`: the fields of spec 001 §5 (`fields` names each failing one);
 * - 400 `ERR_WAPP_NOT_INITIALIZED`: the connection cannot send now;
 * - 404 `ERR_NO_QUEUE_FOUND`: queueId is not a queue of the connection's company;
 * - 400 `ERR_WAPP_INVALID_CONTACT` / `ERR_WAPP_CHECK_CONTACT`: WhatsApp does not know the number.
 * A token only ever reaches its own company's contacts, tickets and queues.
 */
import { type Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { companyPlan } from "../../actors/platform/lookup.ts";
import { AppError } from "../../domain/errors.ts";
import {
  ExternalMediaInput,
  ExternalSendInput,
  IdempotencyKey,
  MAX_MEDIAS,
  requestFingerprint,
  SENT_TEXT,
  UPGRADE_TEXT,
} from "../../domain/external_message.ts";
import { planAllows } from "../../domain/plan.ts";
import type { Whatsapp } from "../../domain/whatsapp.ts";
import { accessState } from "../auth/access.ts";
import { bearerToken } from "../auth/middleware.ts";
import type { AppEnv } from "../deps.ts";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { jsonObjectOf, parseWith } from "../http/validate.ts";
import { type ExternalSend, type ExternalSent, sendExternal } from "../usecases/external_send.ts";
import { idempotent } from "./external_messages_idempotency.ts";
import { externalApiState } from "./external_messages_state.ts";
import { MAX_UPLOAD_BYTES } from "./messages.ts";

type Ctx = Context<AppEnv>;

/** The connection the request's token opens, after the plan and subscription checks. */
async function connectionOf(c: Ctx): Promise<Whatsapp> {
  const deps = c.get("deps");
  const token = bearerToken(c.req.header("authorization"))?.trim() ?? "";
  const conn = await externalApiState(deps).tokens.find(token);
  if (!conn) {
    throw new AppError("ERR_SESSION_EXPIRED", { status: 401, message: "Invalid connection token" });
  }
  if (!planAllows(await companyPlan(deps.system, conn.companyId), "useExternalApi")) {
    throw new AppError("ERR_PLAN_FEATURE", { status: 403, message: UPGRADE_TEXT });
  }
  const { active } = await accessState(deps.system, { companyId: conn.companyId, super: false }, Date.now());
  if (!active) throw new AppError("ERR_SUBSCRIPTION_EXPIRED", { status: 402, message: "Subscription expired" });
  return conn;
}

/**
 * The body as a send: JSON text (read as JSON whatever its content type says, as `curl -d`
 * sends it labelled as a form), a urlencoded form, or multipart files with their captions.
 */
async function readSend(c: Ctx): Promise<ExternalSend> {
  const type = c.req.header("content-type") ?? "";
  if (type.includes("application/x-www-form-urlencoded")) {
    const form = await c.req.parseBody();
    return parseWith(ExternalSendInput, form);
  }
  if (!type.includes("multipart/form-data")) {
    return parseWith(ExternalSendInput, jsonObjectOf(await c.req.text()));
  }
  const form = await c.req.parseBody({ all: true });
  const list = (v: unknown) => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
  const first = (v: unknown) => list(v)[0];
  const input = parseWith(ExternalMediaInput, {
    number: first(form.number),
    openTicket: first(form.openTicket),
    queueId: first(form.queueId),
  });
  const files = [...list(form.medias), ...list(form["medias[]"])].filter((f): f is File => f instanceof File);
  if (files.length === 0 || files.length > MAX_MEDIAS) {
    const message = files.length === 0 ? "Required" : `At most ${MAX_MEDIAS} files`;
    throw new AppError("ERR_VALIDATION", { status: 400, message: `medias: ${message}`, fields: { medias: message } });
  }
  const captions = list(form.caption ?? form["caption[]"] ?? form.body).map((v) => (typeof v === "string" ? v.trim() : ""));
  return {
    ...input,
    medias: files.map((file, i) => ({ file, caption: captions[i] ?? (files.length === 1 ? captions[0] ?? "" : "") })),
  };
}

/** The answer of a send (spec 001 §7): the message, number, contact, ticket and the messages stored. */
function replyOf({ number, contact, ticket, messages }: ExternalSent) {
  return {
    message: SENT_TEXT,
    number,
    contact: { id: contact.id, name: contact.name, number: contact.number },
    ticket: { id: ticket.id, uuid: ticket.uuid, status: ticket.status, queueId: ticket.queueId },
    messages: messages.map((v) => ({
      id: v.id,
      body: v.body,
      mediaType: v.mediaType,
      ack: v.ack,
      fromMe: v.fromMe,
      createdAt: v.createdAt,
    })),
  };
}

/** The `Idempotency-Key` header, validated; undefined when absent. */
function idempotencyKey(c: Ctx): string | undefined {
  const raw = c.req.header("idempotency-key");
  if (raw === undefined) return undefined;
  const parsed = IdempotencyKey.safeParse(raw);
  if (!parsed.success) {
    throw new AppError("ERR_VALIDATION", {
      status: 400,
      message: parsed.error.issues[0].message,
      fields: { "Idempotency-Key": parsed.error.issues[0].message },
    });
  }
  return parsed.data;
}

/** Mounted at `/api/messages`. */
export function externalMessageRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.post(
    "/send",
    bodyLimit({
      maxSize: MAX_UPLOAD_BYTES,
      onError: () => {
        throw new AppError("ERR_VALIDATION", { status: 413, message: "Upload too large (max 100 MB)" });
      },
    }),
    async (c) => {
      const deps = c.get("deps");
      const conn = await connectionOf(c);
      const { allowed, retryAfter } = externalApiState(deps).rate.take(conn.token, Date.now());
      if (!allowed) {
        c.header("Retry-After", String(retryAfter));
        return c.json({
          error: "ERR_TOO_MANY_ATTEMPTS",
          message: `Too many requests for this connection token; retry in ${retryAfter} s`,
          retryAfter,
        }, 429);
      }
      const key = idempotencyKey(c);
      const input = await readSend(c);
      const fingerprint = requestFingerprint(
        input,
        input.medias?.map(({ file, caption }) => ({ name: file.name, size: file.size, type: file.type, caption })),
      );
      const reply = await idempotent(deps.kv, { companyId: conn.companyId, whatsappId: conn.id }, key, fingerprint, async () => ({
        status: 200,
        body: replyOf(await sendExternal(deps, conn, input)),
      })).catch((error) => {
        if (error instanceof AppError && error.status === 409) c.header("Retry-After", "2");
        throw error;
      });
      if (reply.replayed) c.header("Idempotent-Replayed", "true");
      return c.json(reply.body, reply.status as ContentfulStatusCode);
    },
  );
  return app;
}
