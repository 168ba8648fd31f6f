/**
 * The official WhatsApp Cloud API adapter (issue #22), for companies with an official number:
 * an HTTP client of Meta's Graph API for one phone number (`cloudPhoneNumberId` of the
 * connection, its `cloudAccessToken` as bearer), plus `handleWebhook` for what Meta POSTs to
 * POST /webhooks/cloudapi/{whatsappId} (signature checked by the route with the app secret).
 *
 * - start: GET /{phone-number-id} validates the credentials → CONNECTED with the number;
 *   a refused token or missing fields → DISCONNECTED with the Graph error as the reason.
 *   The credentials are read afresh from the store on every start (an admin may change them).
 * - inbound: text, media (GET /{media-id} → url, then GET url with the bearer), reactions,
 *   locations, contacts, button and list replies go through the common inbound path (dedupe
 *   by wamid); statuses become acks (sent 2, delivered 3, read 4) or a failure.
 * - the 24-hour customer-service window: each customer's last message time is kept in KV;
 *   free text or media outside it fails with `ERR_CLOUDAPI_WINDOW_CLOSED` (no retries),
 *   a template (`OutboundMessage.template`) is always allowed.
 * - edit and delete are not offered by the Cloud API: they fail with a clear error.
 * - a send with an idempotency key (campaigns) is sent once per key through a ledger that
 *   Meta's status webhooks complete (cloudapi_keyed.ts: the key rides as
 *   `biz_opaque_callback_data`).
 */
import type { ChannelAdapter, OutboundMessage } from "../../domain/channel.ts";
import { AppError, type ErrorCode } from "../../domain/errors.ts";
import type { Whatsapp } from "../../domain/whatsapp.ts";
import {
  type CloudInbound,
  cloudMediaKind,
  GRAPH_REENGAGEMENT_CODE,
  mediaRequest,
  readNotification,
  readRequest,
  type TemplateInfo,
  templateInfo,
  templateRequest,
  textRequest,
  windowOf,
} from "./cloudapi_map.ts";
import { keyedSend, noteKeyedStatus } from "./cloudapi_keyed.ts";
import { type AdapterContext, digits } from "./types.ts";
import { log } from "../../actors/_runtime/log.ts";

/** Where the Graph API is and how to read the connection's current credentials. */
export interface CloudApiConfig {
  /** Graph base URL with its version, e.g. https://graph.facebook.com/v21.0. */
  baseUrl: string;
  /** The connection record as stored now (credentials may have changed since the build). */
  load(): Promise<Whatsapp | undefined>;
}

/** KV key of the time (ms) of a customer's last message on a connection: the window's start. */
const windowKey = (companyId: number, whatsappId: number, number: string): Deno.KvKey => [
  "cloudapi_window",
  companyId,
  whatsappId,
  number,
];

/** When `number` last wrote to connection `whatsappId` (ms), or null if never. */
export async function lastInboundAt(kv: Deno.Kv, companyId: number, whatsappId: number, number: string): Promise<number | null> {
  return (await kv.get<number>(windowKey(companyId, whatsappId, number))).value ?? null;
}

/** Graph's `{ error: { message, code } }` body, or {} when the answer is not one. */
function graphErrorOf(text: string): { message?: string; code?: number } {
  try {
    const error = JSON.parse(text)?.error;
    return typeof error === "object" && error !== null ? error : {};
  } catch {
    return {};
  }
}

/**
 * Asks the Graph API about a phone number id with a token before they are saved
 * (GET /{phone-number-id}): the field Meta refused and why, or null when it accepted them or
 * could not be asked (network, Graph down: the session's start reports that later).
 */
export async function refusedCredentials(baseUrl: string, phoneNumberId: string, accessToken: string): Promise<Record<string, string> | null> {
  let response: Response;
  try {
    response = await fetch(`${baseUrl.replace(/\/$/, "")}/${encodeURIComponent(phoneNumberId)}?fields=display_phone_number`, {
      headers: { authorization: `Bearer ${accessToken}` },
      signal: AbortSignal.timeout(10_000),
    });
  } catch {
    return null;
  }
  const text = await response.text();
  if (response.ok) return null;
  const error = graphErrorOf(text);
  const why = error.message ?? `answered ${response.status}`;
  if (response.status === 401 || error.code === 190) return { cloudAccessToken: `Refused by the Graph API: ${why}` };
  if (error.code === 100 || response.status === 404) return { cloudPhoneNumberId: `Unknown to the Graph API: ${why}` };
  return null;
}

/** A Graph API refusal with its numeric code (190 bad token, 131047 window closed…). */
export class GraphError extends AppError {
  constructor(code: ErrorCode, readonly graphCode: number | null, message: string, status = 502) {
    super(code, { status, message });
  }
}

/** The Cloud API adapter; see the module doc. */
export class CloudApiAdapter implements ChannelAdapter {
  #ctx: AdapterContext;
  #config: CloudApiConfig;
  #record: Whatsapp;
  #open = false;

  constructor(ctx: AdapterContext, config: CloudApiConfig) {
    this.#ctx = ctx;
    this.#config = config;
    this.#record = ctx.record;
  }

  /** The connection's record as the adapter last read it (for the webhook's checks). */
  get record(): Whatsapp {
    return this.#record;
  }

  async start(): Promise<void> {
    this.#open = false;
    this.#record = (await this.#config.load()) ?? this.#record;
    const r = this.#record;
    const missing = [
      ["phone number id", r.cloudPhoneNumberId],
      ["WABA id", r.cloudWabaId],
      ["access token", r.cloudAccessToken],
      ["app secret", r.cloudAppSecret],
    ].filter(([, v]) => !v).map(([name]) => name);
    if (missing.length > 0) {
      this.#ctx.emit({ type: "disconnected", reason: `Cloud API connection lacks its ${missing.join(", ")}`, loggedOut: false });
      return;
    }
    try {
      const phone = await this.#graph<{ display_phone_number?: string; verified_name?: string }>(
        "GET",
        `/${r.cloudPhoneNumberId}?fields=display_phone_number,verified_name`,
      );
      this.#open = true;
      this.#ctx.emit({ type: "connected", number: digits(phone?.display_phone_number ?? "") || r.number });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      log.warn(`Cloud API connection ${this.#ctx.whatsappId} did not start: ${reason}`);
      this.#ctx.emit({ type: "disconnected", reason, loggedOut: false });
    }
  }

  stop(): Promise<void> {
    this.#open = false;
    return Promise.resolve();
  }

  /** Nothing to unpair on the Cloud API: the number stays registered with Meta. */
  logout(): Promise<void> {
    this.#open = false;
    return Promise.resolve();
  }

  /**
   * One webhook POST (already authenticated): inbound messages are downloaded (media) and
   * reported, the customer's window restarted; statuses become acks or failures.
   */
  async handleWebhook(payload: unknown): Promise<void> {
    const { messages, statuses } = readNotification(payload, this.#record.cloudPhoneNumberId);
    for (const inbound of messages) {
      await this.#noteInbound(inbound.message.from, inbound.message.timestamp);
      if (inbound.mediaId) await this.#download(inbound);
      this.#ctx.emit({ type: "message", message: inbound.message });
    }
    for (const status of statuses) {
      if (status.callbackData) await noteKeyedStatus(this.#keyedScope(), status.callbackData, status.providerId);
      if ("ack" in status) this.#ctx.emit({ type: "ack", providerId: status.providerId, ack: status.ack });
      else {
        const code = status.failed.code === GRAPH_REENGAGEMENT_CODE ? "ERR_CLOUDAPI_WINDOW_CLOSED" : "ERR_SENDING_WAPP_MSG";
        this.#ctx.emit({ type: "failed", providerId: status.providerId, code });
      }
    }
  }

  sendText(message: OutboundMessage): Promise<{ providerId: string }> {
    return this.#once(message, async () => {
      if (message.template) return await this.#send(templateRequest(message.to, message.template), message.idempotencyKey);
      await this.#assertWindow(message.to);
      return await this.#send(textRequest(message.to, message.body, message.quotedProviderId), message.idempotencyKey);
    });
  }

  sendMedia(message: OutboundMessage): Promise<{ providerId: string }> {
    return message.media ? this.#once(message, () => this.#sendMedia(message)) : this.sendText(message);
  }

  /**
   * A keyed message goes out once per key (cloudapi_keyed.ts); others at once. Our own errors
   * (Graph's refusals, the closed window, not connected) prove nothing was sent; a network
   * failure or timeout of the POST leaves it unknown.
   */
  #once(message: OutboundMessage, send: () => Promise<{ providerId: string }>): Promise<{ providerId: string }> {
    if (message.idempotencyKey === undefined) return send();
    return keyedSend(this.#keyedScope(), message.idempotencyKey, send, (error) => error instanceof AppError);
  }

  #keyedScope() {
    return { kv: this.#ctx.kv, companyId: this.#ctx.companyId, whatsappId: this.#ctx.whatsappId };
  }

  async #sendMedia(message: OutboundMessage): Promise<{ providerId: string }> {
    const media = message.media!;
    await this.#assertWindow(message.to);
    const kind = cloudMediaKind(media.mediaType, media.mimetype);
    const form = new FormData();
    form.append("messaging_product", "whatsapp");
    form.append("type", media.mimetype);
    form.append("file", new Blob([await Deno.readFile(media.path)], { type: media.mimetype }), media.filename);
    const uploaded = await this.#graph<{ id?: string }>("POST", `/${this.#record.cloudPhoneNumberId}/media`, form);
    if (!uploaded?.id) throw new AppError("ERR_SENDING_WAPP_MSG", { status: 502, message: "The Graph API gave no media id" });
    const caption = message.body === media.filename ? "" : message.body;
    return await this.#send(mediaRequest(message.to, kind, uploaded.id, caption, media.filename, message.quotedProviderId), message.idempotencyKey);
  }

  /** The Cloud API cannot edit a sent message. */
  edit(): Promise<void> {
    return Promise.reject(new AppError("ERR_FETCH_WAPP_MSG", { status: 400, message: "The WhatsApp Cloud API does not edit sent messages" }));
  }

  /** The Cloud API cannot delete a sent message for everyone. */
  delete(): Promise<void> {
    return Promise.reject(new AppError("ERR_DELETE_WAPP_MSG", { status: 400, message: "The WhatsApp Cloud API does not delete sent messages" }));
  }

  /** Marks the customer's messages read (one `status: read` call per message; blue ticks). */
  async markRead(_to: string, providerIds: string[]): Promise<void> {
    this.#ready();
    for (const id of providerIds) await this.#graph("POST", `/${this.#record.cloudPhoneNumberId}/messages`, readRequest(id));
  }

  /**
   * The Cloud API has no contacts check any more (the old /contacts endpoint was retired):
   * every number is treated as valid; a send to a number without WhatsApp fails later
   * through its `failed` status.
   */
  checkNumber(number: string): Promise<{ exists: boolean; jid?: string }> {
    return Promise.resolve({ exists: true, jid: digits(number) });
  }

  /** The Cloud API does not give customers' profile pictures. */
  profilePicture(): Promise<string | null> {
    return Promise.resolve(null);
  }

  /** The approved templates of the connection's business account (GET /{waba-id}/message_templates, all pages). */
  async templates(): Promise<TemplateInfo[]> {
    const out: TemplateInfo[] = [];
    let path: string | null = `/${this.#record.cloudWabaId}/message_templates?status=APPROVED&limit=100`;
    for (let page = 0; path && page < 20; page++) {
      const found: { data?: unknown[]; paging?: { next?: string } } | undefined = await this.#graph("GET", path);
      for (const row of found?.data ?? []) {
        const info = templateInfo(row);
        if (info.status.toUpperCase() === "APPROVED" && info.name) out.push(info);
      }
      path = found?.paging?.next ?? null;
    }
    return out;
  }

  /** Whether free text may be sent to `number` now, and until when. */
  async window(number: string): Promise<{ open: boolean; expiresAt: number | null; lastInboundAt: number | null }> {
    const last = await lastInboundAt(this.#ctx.kv, this.#ctx.companyId, this.#ctx.whatsappId, digits(number));
    return { ...windowOf(last, Date.now()), lastInboundAt: last };
  }

  async #noteInbound(number: string, at: number): Promise<void> {
    const key = windowKey(this.#ctx.companyId, this.#ctx.whatsappId, number);
    const old = (await this.#ctx.kv.get<number>(key)).value ?? 0;
    if (at > old) await this.#ctx.kv.set(key, at);
  }

  async #assertWindow(to: string): Promise<void> {
    const { open, lastInboundAt } = await this.window(to);
    if (!open) {
      throw new AppError("ERR_CLOUDAPI_WINDOW_CLOSED", {
        status: 422,
        message: lastInboundAt === null
          ? `${to} never wrote to this number: only an approved template may be sent`
          : `More than 24 hours since ${to} last wrote: only an approved template may be sent`,
      });
    }
  }

  /** Downloads an inbound message's media through the Graph media endpoints; a failure keeps the text. */
  async #download(inbound: CloudInbound): Promise<void> {
    try {
      const info = await this.#graph<{ url?: string; mime_type?: string }>("GET", `/${inbound.mediaId}`);
      if (!info?.url) throw new Error("no url");
      const response = await fetch(info.url, {
        headers: { authorization: `Bearer ${this.#record.cloudAccessToken}` },
        signal: AbortSignal.timeout(60_000),
      });
      if (!response.ok) {
        await response.body?.cancel();
        throw new Error(`download answered ${response.status}`);
      }
      const data = new Uint8Array(await response.arrayBuffer());
      const mimetype = (info.mime_type ?? inbound.mimetype ?? "application/octet-stream").split(";")[0].trim();
      inbound.message.media = { data, mimetype, filename: inbound.filename ?? inbound.message.providerId };
    } catch (error) {
      log.warn(`Cloud API media ${inbound.mediaId} of connection ${this.#ctx.whatsappId} not downloaded:`, { error: String(error) });
    }
  }

  /** POST …/messages; a keyed send's key rides as `biz_opaque_callback_data` (echoed in its statuses). */
  async #send(body: Record<string, unknown>, key?: string): Promise<{ providerId: string }> {
    this.#ready();
    const request = key === undefined ? body : { ...body, biz_opaque_callback_data: key };
    const sent = await this.#graph<{ messages?: Array<{ id?: string }> }>("POST", `/${this.#record.cloudPhoneNumberId}/messages`, request);
    const id = sent?.messages?.[0]?.id;
    if (!id) throw new AppError("ERR_SENDING_WAPP_MSG", { status: 502, message: "The Graph API gave no message id" });
    return { providerId: id };
  }

  #ready(): void {
    if (!this.#open) {
      throw new AppError("ERR_WAPP_NOT_INITIALIZED", { status: 409, message: `Connection ${this.#ctx.whatsappId} is not connected` });
    }
  }

  /** One Graph API call with the bearer token; Graph's `{ error }` becomes a GraphError. */
  async #graph<T = unknown>(method: string, path: string, body?: unknown): Promise<T | undefined> {
    const url = /^https?:\/\//.test(path) ? path : this.#config.baseUrl.replace(/\/$/, "") + path;
    const headers: Record<string, string> = { authorization: `Bearer ${this.#record.cloudAccessToken}` };
    if (body !== undefined && !(body instanceof FormData)) headers["content-type"] = "application/json";
    const response = await fetch(url, {
      method,
      headers,
      body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
    const text = await response.text();
    if (!response.ok) {
      const error = graphErrorOf(text);
      const graphCode = typeof error.code === "number" ? error.code : null;
      const what = `Graph API ${method} ${path.split("?")[0]} answered ${response.status}` +
        (graphCode !== null ? ` (code ${graphCode})` : "") + `: ${error.message ?? text.slice(0, 200)}`;
      if (graphCode === GRAPH_REENGAGEMENT_CODE) throw new GraphError("ERR_CLOUDAPI_WINDOW_CLOSED", graphCode, what, 422);
      throw new GraphError("ERR_SENDING_WAPP_MSG", graphCode, what);
    }
    return text ? JSON.parse(text) as T : undefined;
  }
}
