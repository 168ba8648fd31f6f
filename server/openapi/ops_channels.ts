/**
 * Operations of the WhatsApp channels: connections and sessions, the simulator, the
 * providers' inbound webhooks, the external messages API, media, the realtime upgrade and the
 * health probe (spec 001 §2.2, §2.17, §7; DESIGN §4–§6).
 */
import { z } from "zod";
import { ExternalMediaInput, ExternalSendInput, IdempotencyKey, MAX_MEDIAS } from "../../domain/external_message.ts";
import { WsQuery } from "../../domain/realtime.ts";
import { HubSignature, KeywordsInput, SessionLogoutBody, WhatsappInput, WhatsappListQuery } from "../../domain/whatsapp.ts";
import { FailInput, SimulatorAckInput, SimulatorCallInput, SimulatorInboundInput } from "../../domain/simulator.ts";
import { PhoneReadInput } from "../../domain/phone_view.ts";
import { ConnectionAlertQuery } from "../../domain/connection_alert.ts";
import { area, type Operation } from "./operation.ts";
import { ExternalSendReply, MessageReply, WhatsappView } from "./shapes.ts";

const WhatsappList = z.array(WhatsappView);

const whatsapp = area("Connections");
const simulator = area("Simulator");
const hooks = area("Provider webhooks", "signature");
const external = area("External API", "connectionToken");
const system = area("System", "none");

/** The channels' endpoints. */
export const CHANNEL_OPERATIONS: Operation[] = [
  whatsapp.get("/whatsapp", "The company's connections", { query: { WhatsappListQuery }, response: { WhatsappList } }),
  whatsapp.get("/whatsapp/:id", "One connection", { response: { WhatsappView }, errors: ["ERR_NO_WAPP_FOUND"] }),
  whatsapp.post("/whatsapp", "Create a connection (simulator, Baileys, Evolution or Cloud API)", {
    body: { WhatsappInput },
    access: "connections:manage",
    response: { WhatsappView },
    example: { name: "Atendimento", isDefault: true, greetingMessage: "Olá!" },
    errors: ["ERR_PLAN_LIMIT", "ERR_WAPP_GREETING_REQUIRED"],
  }),
  whatsapp.put("/whatsapp/:id", "Update a connection", {
    body: { WhatsappInput },
    response: { WhatsappView },
    access: "connections:manage",
    errors: ["ERR_NO_WAPP_FOUND"],
  }),
  whatsapp.put("/whatsapp/:id/keywords", "Replace the CRM keyword/code table", {
    body: { KeywordsInput },
    access: "connections:manage",
    example: { keywords: [{ keyword: "pedido", code: "PED" }] },
  }),
  whatsapp.delete("/whatsapp/:id", "Delete a connection", { query: { WhatsappListQuery }, access: "super", errors: ["ERR_NO_WAPP_FOUND"] }),
  whatsapp.get("/whatsapp/:id/templates", "Cloud API: the connection's approved message templates"),
  whatsapp.post("/whatsappsession/:id", "Start the connection's session (QR code follows on the socket)", { access: "connections:manage" }),
  whatsapp.put("/whatsappsession/:id", "Restart the session for a new QR code", { access: "connections:manage" }),
  whatsapp.delete("/whatsappsession/:id", "Log the session out", { body: { LogoutBody: SessionLogoutBody }, access: "connections:manage" }),
  whatsapp.post("/whatsapp-restart", "Restart every session of the company", { response: { MessageReply }, access: "connections:manage" }),

  simulator.get("/simulator", "The company's simulated phones (connections with the simulator provider)"),
  simulator.get("/simulator/:id/chats", "The simulated phone's chats: customers who talked with the number, then its address book"),
  simulator.get("/simulator/:id/chats/:number", "One customer's chat as their phone shows it (menus, ticks)"),
  simulator.post("/simulator/:id/read", "The customer opens the chat: the company's messages in it are read (ack 4)", { body: { PhoneReadInput } }),
  simulator.get("/simulator/:id/qr", "The simulator connection's QR code"),
  simulator.post("/simulator/:id/scan", "Scan the QR code: the connection pairs"),
  simulator.post("/simulator/:id/inbound", "A customer sends a message", {
    body: { SimulatorInboundInput },
    example: { from: "5511912345678", name: "Cliente", body: "Oi, preciso de ajuda" },
  }),
  simulator.get("/simulator/:id/outbox", "Messages the company sent to simulated customers"),
  simulator.post("/simulator/:id/ack", "Acknowledge a sent message (1 sent … 5 played)", { body: { SimulatorAckInput } }),
  simulator.post("/simulator/:id/call", "A customer calls the phone (voice or video)", { body: { SimulatorCallInput } }),
  simulator.post("/simulator/:id/disconnect", "Drop the simulated phone's connection"),
  simulator.post("/simulator/:id/fail", "Make the next sends fail", { body: { FailInput } }),

  hooks.post("/webhooks/evolution/:whatsappId", "Evolution API events for a connection", {
    description: "Authenticated by the connection's token in the `token` query parameter (the URL the connection gives Evolution).",
    errors: ["ERR_SESSION_EXPIRED", "ERR_NO_WAPP_FOUND", "ERR_VALIDATION"],
  }),
  hooks.get("/webhooks/cloudapi/:whatsappId", "Meta's verification challenge", {
    auth: "none",
    response: "text/plain",
    description: "Answers `hub.challenge` when `hub.mode=subscribe` and `hub.verify_token` is the connection's verify token; 403 otherwise.",
    errors: ["ERR_NO_PERMISSION", "ERR_NO_WAPP_FOUND"],
  }),
  hooks.post("/webhooks/cloudapi/:whatsappId", "WhatsApp Cloud API notifications (messages, statuses)", {
    headers: {
      "X-Hub-Signature-256": { required: true, schema: HubSignature, description: "`sha256=<hex HMAC-SHA256 of the raw body keyed by the connection's app secret>`" },
    },
    description: "A missing or wrong `X-Hub-Signature-256` is 401.",
    errors: ["ERR_SESSION_EXPIRED"],
  }),

  external.post("/api/messages/send", "Send a WhatsApp message from another system", {
    body: { ExternalSendInput },
    multipart: { ExternalMediaInput },
    files: { medias: { description: "one or more files (each with its `caption`)", maxItems: MAX_MEDIAS } },
    response: { ExternalSendReply },
    headers: {
      "Idempotency-Key": { schema: IdempotencyKey, description: "A retried request with the same key and body sends once" },
    },
    example: { number: "5511987654321", body: "Seu pedido saiu para entrega", openTicket: 0 },
    errors: [
      "ERR_SESSION_EXPIRED",
      "ERR_PLAN_FEATURE",
      "ERR_SUBSCRIPTION_EXPIRED",
      "ERR_TOO_MANY_ATTEMPTS",
      "ERR_WAPP_NOT_INITIALIZED",
      "ERR_NO_QUEUE_FOUND",
      "ERR_WAPP_INVALID_CONTACT",
      "ERR_WAPP_CHECK_CONTACT",
      "ERR_CONFLICT",
    ],
    description: [
      "Authenticated by the connection's token as a bearer (`Authorization: Bearer <token>`).",
      "JSON (`number`, `body`, `openTicket` 0/1, `queueId` when openTicket is 1), a urlencoded form with the same",
      "fields, or multipart with `medias` files. The number gets country code 55 when it has none.",
      "An `Idempotency-Key` header (1–255 visible characters) makes a retried request send once: the replay",
      "answers `Idempotent-Replayed: true`; the same key with another body is 409. Over the per-token rate the",
      "answer is 429 with `Retry-After`. The plan must have useExternalApi (403 otherwise).",
    ].join(" "),
  }),

  system.get("/media/:companyId/:file", "A stored media file (signed URL)", {
    response: "application/octet-stream",
    description: "The `exp` and `sig` query parameters of the URL the API handed out sign it: a bad or expired one is 403, a missing file 404.",
    errors: ["ERR_NO_PERMISSION", "ERR_NOT_FOUND"],
  }),
  system.get("/ws", "Upgrade to the realtime WebSocket", {
    auth: "bearer",
    query: { WsQuery },
    response: "websocket",
    description: "101 Switching Protocols. The access token is the `token` query parameter or a first `{ type: \"auth\" }` frame.",
  }),
  whatsapp.get("/connection-alerts", "Dropped connections: down past the grace period (admins: the company's open ones)", {
    query: { ConnectionAlertQuery },
    access: "connections:manage",
    description: "A connection that left CONNECTED and stayed away longer than BALCAO_SESSION_DROP_GRACE (5 minutes by default); " +
      "live changes come on `company-{id}-connectionAlert` (admins only). With `all=true` (super users only) every company's, " +
      "restored ones of the last week too, with the company's name.",
  }),
  system.get("/health", "Liveness probe: answers as soon as the process listens", { response: { Health: z.object({ status: z.literal("ok") }) } }),
  system.get("/ready", "Readiness probe: 200 once the start is done, 503 while starting or stopping", {
    response: { Ready: z.object({ status: z.enum(["ready", "starting", "warming", "resuming", "stopping"]) }) },
    description: "Until ready every other request (but /health and /metrics) answers 503 `ERR_STARTING` with Retry-After.",
  }),
  system.get("/metrics", "Prometheus metrics of this process", {
    response: "text/plain",
    description: "Bearer BALCAO_METRICS_TOKEN (`Authorization: Bearer <token>`); 404 when no token is configured. See README.md \"Operating\".",
    errors: ["ERR_SESSION_EXPIRED", "ERR_NOT_FOUND"],
  }),
  system.get("/openapi.json", "This document", { response: "application/json" }),
];
