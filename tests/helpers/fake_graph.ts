/**
 * A fake Meta Graph API (WhatsApp Cloud API) on loopback for the Cloud API adapter's tests,
 * built from the public API's request and response shapes: the phone number object
 * (GET /{version}/{phone-number-id}), the messages endpoint (POST …/messages: text, media,
 * template, `status: read`), media upload (POST …/media, multipart), media retrieval
 * (GET /{version}/{media-id} → url, then GET that url with the bearer), approved templates
 * (GET /{version}/{waba-id}/message_templates, paged), and Graph's `{ error }` bodies (190 for
 * a bad token, 100 for an unknown object, 132001 for an unknown template). Every call is
 * recorded; tests steer it through `state` and build signed webhook deliveries with
 * `notification` and `sign`.
 */
import { signBody } from "../../server/channels/webhook.ts";

export const GRAPH_VERSION = "v21.0";

/** One request the fake received (multipart bodies as their text fields plus `file` info). */
export interface GraphCall {
  method: string;
  path: string;
  query: Record<string, string>;
  // deno-lint-ignore no-explicit-any -- tests assert on the posted JSON shapes
  body: any;
  authorization: string | null;
}

/** A template row as GET message_templates answers it. */
export interface FakeTemplate {
  name: string;
  language: string;
  status: "APPROVED" | "PENDING" | "REJECTED";
  category: string;
  components: Array<{ type: string; text?: string; format?: string }>;
}

/** The ids and token the fake answers for. */
export interface FakeGraphOptions {
  phoneNumberId?: string;
  wabaId?: string;
  accessToken?: string;
  displayPhoneNumber?: string;
}

const graphError = (status: number, code: number, message: string, type = "OAuthException") =>
  Response.json({ error: { message, type, code, fbtrace_id: "AbCdEfGhIjK" } }, { status });

/** Starts the fake; `shutdown()` its `server` when done. */
export function fakeGraph(options: FakeGraphOptions = {}) {
  const ids = {
    phoneNumberId: options.phoneNumberId ?? "106540352242922",
    wabaId: options.wabaId ?? "102290129340398",
    accessToken: options.accessToken ?? "EAAGood-token",
    displayPhoneNumber: options.displayPhoneNumber ?? "+55 11 95555-0000",
  };
  const calls: GraphCall[] = [];
  const state = {
    /** The token the fake accepts (change it to make every call answer 190). */
    accessToken: ids.accessToken,
    sent: 0,
    /** Media the customer sent: id → bytes (what GET /{media-id} and its url serve). */
    media: new Map<string, { data: Uint8Array; mimetype: string }>(),
    /** Files uploaded through POST /{phone-number-id}/media. */
    uploads: new Map<string, { size: number; mimetype: string; filename: string; type: string }>(),
    templates: [
      { name: "hello_world", language: "en_US", status: "APPROVED", category: "UTILITY", components: [{ type: "HEADER", format: "TEXT", text: "Hello World" }, { type: "BODY", text: "Welcome and congratulations!!" }] },
      { name: "retomar_conversa", language: "pt_BR", status: "APPROVED", category: "UTILITY", components: [{ type: "BODY", text: "Olá {{1}}, seu pedido {{2}} está pronto." }] },
      { name: "rascunho", language: "pt_BR", status: "PENDING", category: "MARKETING", components: [{ type: "BODY", text: "Ainda não" }] },
    ] as FakeTemplate[],
    /** Largest page of message_templates (smaller than the caller's limit: paging is exercised). */
    templatePage: 100,
  };

  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const query = Object.fromEntries(url.searchParams);
    const authorization = req.headers.get("authorization");
    let body: unknown = undefined;
    const type = req.headers.get("content-type") ?? "";
    if (type.includes("multipart/form-data")) {
      const form = await req.formData();
      const fields: Record<string, unknown> = {};
      for (const [k, v] of form) fields[k] = v instanceof File ? { name: v.name, size: v.size, type: v.type } : v;
      body = fields;
    } else {
      const text = await req.text();
      body = text ? JSON.parse(text) : undefined;
    }
    calls.push({ method: req.method, path: url.pathname, query, body, authorization });
    if (authorization !== `Bearer ${state.accessToken}`) {
      return graphError(401, 190, "Invalid OAuth access token - Cannot parse access token");
    }
    const [, first, id, edge] = url.pathname.split("/");
    if (first === "media-download") {
      const media = state.media.get(id);
      return media ? new Response(new Uint8Array(media.data), { headers: { "content-type": media.mimetype } }) : new Response("not found", { status: 404 });
    }
    if (first !== GRAPH_VERSION) return graphError(400, 100, "Unknown path components", "GraphMethodException");

    if (req.method === "GET" && id === ids.phoneNumberId && !edge) {
      return Response.json({ verified_name: "Balcão Teste", display_phone_number: ids.displayPhoneNumber, id: ids.phoneNumberId, quality_rating: "GREEN", code_verification_status: "VERIFIED" });
    }
    if (req.method === "POST" && id === ids.phoneNumberId && edge === "messages") return messages(body as Record<string, unknown>);
    if (req.method === "POST" && id === ids.phoneNumberId && edge === "media") {
      const fields = body as Record<string, { size: number; type: string; name: string } | string>;
      const file = fields.file;
      if (fields.messaging_product !== "whatsapp" || typeof file !== "object" || !fields.type) {
        return graphError(400, 100, "(#100) The parameter messaging_product is required.", "OAuthException");
      }
      const mediaId = String(4490709327384033 + state.uploads.size);
      state.uploads.set(mediaId, { size: file.size, mimetype: String(fields.type), filename: file.name, type: String(fields.type) });
      return Response.json({ id: mediaId });
    }
    if (req.method === "GET" && id === ids.wabaId && edge === "message_templates") {
      const wanted = query.status;
      const rows = state.templates.filter((t) => !wanted || t.status === wanted);
      const limit = Math.min(Number(query.limit ?? state.templatePage), state.templatePage);
      const start = Number(query.after ?? 0);
      const page = rows.slice(start, start + limit).map((t, i) => ({ ...t, id: String(9000 + start + i) }));
      const after = start + limit;
      const next = after < rows.length ? `${url.origin}${url.pathname}?${new URLSearchParams({ ...query, limit: String(limit), after: String(after) })}` : undefined;
      return Response.json({ data: page, paging: { cursors: { before: String(start), after: String(after) }, ...(next ? { next } : {}) } });
    }
    if (req.method === "GET" && !edge && state.media.has(id)) {
      const media = state.media.get(id)!;
      const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new Uint8Array(media.data)));
      return Response.json({
        messaging_product: "whatsapp",
        url: `${url.origin}/media-download/${id}`,
        mime_type: media.mimetype,
        sha256: Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join(""),
        file_size: media.data.length,
        id,
      });
    }
    return graphError(400, 100, `Unsupported ${req.method.toLowerCase()} request. Object with ID '${id}' does not exist`, "GraphMethodException");
  });

  /** POST /{phone-number-id}/messages: a read receipt, or a message to send. */
  function messages(body: Record<string, unknown> | undefined): Response {
    // deno-lint-ignore no-explicit-any -- reading the posted JSON like Graph does
    const b = (body ?? {}) as any;
    if (b.messaging_product !== "whatsapp") return graphError(400, 100, "(#100) The parameter messaging_product is required.");
    if (b.status === "read") return b.message_id ? Response.json({ success: true }) : graphError(400, 100, "(#100) The parameter message_id is required.");
    if (!b.to || !b.type) return graphError(400, 100, "(#100) The parameter to is required.");
    if (b.type === "text" && !b.text?.body) return graphError(400, 100, "(#100) The parameter text['body'] is required.");
    if (b.type === "template") {
      const known = state.templates.find((t) => t.name === b.template?.name && t.language === b.template?.language?.code && t.status === "APPROVED");
      if (!known) return graphError(404, 132001, "(#132001) Template name does not exist in the translation");
    }
    if (["image", "audio", "video", "document", "sticker"].includes(b.type)) {
      const node = b[b.type];
      if (!node?.id && !node?.link) return graphError(400, 100, `(#100) The parameter ${b.type}['id'] is required.`);
      if (node.id && !state.uploads.has(String(node.id))) return graphError(400, 131053, "Media upload error");
    }
    const wamid = `wamid.HBgNNTUxMTk5OTk5OTk5ORUCABEYEj${String(++state.sent).padStart(6, "0")}`;
    return Response.json({ messaging_product: "whatsapp", contacts: [{ input: b.to, wa_id: b.to }], messages: [{ id: wamid }] });
  }

  return {
    ...ids,
    calls,
    state,
    server,
    url: `http://127.0.0.1:${server.addr.port}`,
    /** The Graph base URL the server's `graphApiUrl` should be. */
    baseUrl: `http://127.0.0.1:${server.addr.port}/${GRAPH_VERSION}`,
    /** The messages-endpoint calls (sends and read receipts). */
    sends: () => calls.filter((c) => c.method === "POST" && c.path.endsWith("/messages")),
  };
}

/** `X-Hub-Signature-256` of a webhook body: `sha256=` + hex HMAC-SHA256 keyed by the app secret. */
export function sign(appSecret: string, body: string): Promise<string> {
  return signBody(appSecret, body);
}

/** A webhook delivery (`object: whatsapp_business_account`) with one `messages` change. */
export function notification(
  ids: { phoneNumberId: string; wabaId: string; displayPhoneNumber?: string },
  value: { contacts?: Array<{ wa_id: string; name: string }>; messages?: unknown[]; statuses?: unknown[] },
) {
  return {
    object: "whatsapp_business_account",
    entry: [{
      id: ids.wabaId,
      changes: [{
        field: "messages",
        value: {
          messaging_product: "whatsapp",
          metadata: { display_phone_number: (ids.displayPhoneNumber ?? "").replace(/\D/g, ""), phone_number_id: ids.phoneNumberId },
          ...(value.contacts ? { contacts: value.contacts.map((c) => ({ profile: { name: c.name }, wa_id: c.wa_id })) } : {}),
          ...(value.messages ? { messages: value.messages } : {}),
          ...(value.statuses ? { statuses: value.statuses } : {}),
        },
      }],
    }],
  };
}

/** An inbound text message as the webhook carries it (`timestamp` in seconds, as a string). */
export function textMessage(from: string, id: string, body: string, at = Date.now()) {
  return { from, id, timestamp: String(Math.floor(at / 1000)), type: "text", text: { body } };
}

/** A status notification of one of our sent messages. */
export function status(id: string, value: "sent" | "delivered" | "read" | "failed", recipient: string, errors?: unknown[]) {
  return {
    id,
    status: value,
    timestamp: String(Math.floor(Date.now() / 1000)),
    recipient_id: recipient,
    ...(value === "failed" ? { errors: errors ?? [{ code: 131026, title: "Message undeliverable" }] } : {}),
  };
}
