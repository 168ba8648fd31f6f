/**
 * The route walk the sweeps share (issue #24): every method and path of the Hono app (the
 * same table the OpenAPI test walks), joined with its documented operation (zod schemas,
 * auth, access), path and body values built from a book of record ids, one request sender,
 * and a digest of the KV store to prove a request changed nothing. A route added to the app
 * is walked by every sweep without anyone listing it.
 */
import { z } from "zod";
import { createApp } from "../../server/app.ts";
import type { AppDeps } from "../../server/deps.ts";
import { OPERATIONS } from "../../server/openapi/mod.ts";
import { named, type Operation } from "../../server/openapi/operation.ts";

/** `METHOD /path` of every endpoint in the app's route table. */
export function routedEndpoints(): Set<string> {
  const app = createApp({} as AppDeps);
  const all = new Set<string>();
  for (const route of app.routes) {
    // `app.use` middleware shows as ALL; no endpoint of the product is registered with app.all.
    if (route.method === "ALL") continue;
    all.add(`${route.method} ${route.path}`);
  }
  return all;
}

/** One endpoint to walk, with its documented operation when it has one. */
export interface Endpoint {
  method: string;
  path: string;
  key: string;
  op?: Operation;
}

/** Routes no sweep calls, each with its reason. */
export const NOT_WALKED: Record<string, string> = {
  "GET /build/:file": "island bundles built at start-up (static files, no tenant data)",
  "GET /static/*": "CSS, icons and fonts (static files, no tenant data)",
  "GET /ws": "the WebSocket upgrade; its tenant routing has its own tests (tests/realtime_routing_test.ts)",
};

/**
 * Every endpoint of the app but the static ones, and but the trailing-slash aliases of
 * routeWithSlash (server/api/slash.ts), which answer through the same handler as the path
 * without the slash.
 */
export function sweepEndpoints(): Endpoint[] {
  const routed = routedEndpoints();
  const ops = new Map(OPERATIONS.map((op) => [`${op.method.toUpperCase()} ${op.path}`, op]));
  const out: Endpoint[] = [];
  for (const key of routed) {
    if (key in NOT_WALKED) continue;
    const [method, path] = key.split(" ");
    if (path.length > 1 && path.endsWith("/") && routed.has(`${method} ${path.slice(0, -1)}`)) continue;
    out.push({ method, path, key, op: ops.get(key) });
  }
  // Sign-out last: it ends the caller's own session, which the rest of the walk needs.
  return out.sort((a, b) => Number(a.key === "DELETE /auth/logout") - Number(b.key === "DELETE /auth/logout"));
}

/** Ids of one company's records, by kind; a kind may hold several. */
export type IdBook = Record<string, Array<string | number>>;

/** Path parameter name → kind of record, where the name says it. */
const PARAM_KINDS: Record<string, string> = {
  ticketId: "ticket",
  whatsappId: "whatsapp",
  companyId: "company",
  tagId: "tag",
  deliveryId: "delivery",
  uuid: "ticketUuid",
  chavePesquisa: "surveyKey",
  file: "mediaFile",
  name: "exportFile",
  key: "settingKey",
  destination: "brandingDestination",
  ref: "brandingRef",
};

/** First path segments (or longer prefixes) → kind of the record an `:id` names. */
const ID_KINDS: Array<[prefix: string, kind: string]> = [
  ["/webhooks/subscriptions/", "subscription"],
  ["/messages/", "message"],
  ["/companies/", "company"],
  ["/helps/", "help"],
  ["/plans/", "plan"],
  ["/users/", "user"],
  ["/contacts/", "contact"],
  ["/whatsapp/", "whatsapp"],
  ["/whatsappsession/", "whatsapp"],
  ["/simulator/", "whatsapp"],
  ["/queue/", "queue"],
  ["/queue-options/", "queueOption"],
  ["/tags/", "tag"],
  ["/quick-messages/", "quickMessage"],
  ["/ticket-notes/", "note"],
  ["/oportunidade/", "oportunidade"],
  ["/tickets/", "ticket"],
  ["/announcements/", "announcement"],
  ["/user-announcements/", "announcement"],
  ["/ratings/", "rating"],
  ["/schedules/", "schedule"],
];

/**
 * The concrete paths to call for `path`: each parameter filled from `book`. A parameter the
 * tables above do not know (a new route) is tried with every id of the book, so a new route
 * is still walked with the other company's records.
 */
export function pathsFor(path: string, book: IdBook): string[] {
  let paths = [""];
  for (const segment of path.split("/").slice(1)) {
    const param = /^:(\w+)(\{.*\})?$/.exec(segment);
    let values: Array<string | number>;
    if (!param) values = [segment];
    else {
      const name = param[1];
      const kind = name === "id" ? ID_KINDS.find(([prefix]) => path.startsWith(prefix))?.[1] : PARAM_KINDS[name];
      values = kind && book[kind]?.length ? book[kind] : [...new Set(Object.values(book).flat())];
    }
    paths = paths.flatMap((p) => values.map((v) => `${p}/${encodeURIComponent(String(v))}`));
  }
  return paths.map((p) => p || "/");
}

/** Body and query field names → kind of record whose ids they carry. */
const FIELD_KINDS: Record<string, string> = {
  ticketId: "ticket",
  ticketIds: "ticket",
  groupId: "ticket",
  contactId: "contact",
  contactIds: "contact",
  contacts: "contact",
  contactsId: "contact",
  contactsAddGroup: "contact",
  users: "contact",
  queueId: "queue",
  queueIds: "queue",
  selectedMoveQueueId: "queue",
  queueOptionsId: "queueOption",
  parentId: "queueOption",
  userId: "user",
  userIds: "user",
  queueUsersId: "user",
  walleteUserId: "user",
  whatsappId: "whatsapp",
  whatsappIds: "whatsapp",
  tagId: "tag",
  tags: "tag",
  companyId: "company",
  ratingId: "rating",
  messages: "message",
  messageId: "message",
  scheduleId: "schedule",
  planId: "plan",
};

// deno-lint-ignore no-explicit-any -- JSON Schema nodes are free-form JSON
type Json = Record<string, any>;

/** A value JSON Schema `node` accepts (best effort: refinements are not known), ids from `book`. */
function sampleNode(node: Json, field: string, book: IdBook, marker: string, depth: number): unknown {
  const kind = FIELD_KINDS[field];
  const ids = kind ? book[kind] ?? [] : [];
  if (node.const !== undefined) return node.const;
  if (node.enum) return node.enum[0];
  if (node.default !== undefined && !kind) return node.default;
  const union = node.anyOf ?? node.oneOf;
  if (union) {
    const options = (union as Json[]).filter((o) => o.type !== "null");
    const wanted = ids.length ? options.find((o) => o.type === "array" || o.type === "integer" || o.type === "number") : undefined;
    return sampleNode(wanted ?? options[0] ?? {}, field, book, marker, depth);
  }
  if (node.allOf) return sampleNode(Object.assign({}, ...node.allOf), field, book, marker, depth);
  const type = Array.isArray(node.type) ? node.type.find((t: string) => t !== "null") : node.type;
  switch (type) {
    case "object": {
      if (depth > 4) return {};
      const required = new Set<string>(node.required ?? []);
      const out: Json = {};
      for (const [name, child] of Object.entries<Json>(node.properties ?? {})) {
        if (required.has(name) || FIELD_KINDS[name]) out[name] = sampleNode(child, name, book, marker, depth + 1);
      }
      return out;
    }
    case "array": {
      const items: Json = node.items ?? {};
      if (ids.length) return ids.map((id) => (items.type === "string" ? String(id) : id));
      const count = Math.max(1, node.minItems ?? 0);
      return Array.from({ length: count }, () => sampleNode(items, field, book, marker, depth + 1));
    }
    case "integer":
    case "number":
      if (ids.length && typeof ids[0] === "number") return ids[0];
      return Math.max(node.minimum ?? 1, node.exclusiveMinimum !== undefined ? node.exclusiveMinimum + 1 : 1);
    case "boolean":
      return false;
    case "string": {
      if (ids.length) return String(ids[0]);
      if (node.format === "email") return `${marker.toLowerCase()}@sweep.local`;
      if (node.format === "date-time") return new Date(Date.now() + 86_400_000).toISOString();
      if (node.format === "date") return new Date().toISOString().slice(0, 10);
      // A closed loopback port: a handler that fetches the URL (link preview) never leaves the machine.
      if (node.format === "uri" || node.format === "url") return `http://127.0.0.1:9/${marker}`;
      if (node.pattern && /\^#/.test(node.pattern)) return "#123456";
      if (node.pattern && /0-9|\\d/.test(node.pattern) && !/a-z/i.test(node.pattern)) return "5511987650000";
      const text = `${marker} ${field}`;
      const min = node.minLength ?? 0;
      const max = node.maxLength ?? Infinity;
      return text.padEnd(min, "x").slice(0, max);
    }
    default:
      return ids.length ? ids[0] : `${marker}`;
  }
}

/** The JSON Schema a client writes for `schema`. */
export function jsonSchemaOf(schema: z.ZodType): Json {
  return z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Json;
}

/**
 * A request value for `schema` built from its JSON Schema, its id fields taken from `book`;
 * the operation's example instead when it has one (ids overlaid). Not every build is valid
 * (refinements): `valid` says whether the schema accepts it.
 */
export function sampleFor(schema: z.ZodType, book: IdBook, marker: string, example?: unknown): { value: Json; valid: boolean } {
  let value = sampleNode(jsonSchemaOf(schema), "", book, marker, 0) as Json;
  if (example && typeof example === "object") {
    const overlay = Object.fromEntries(Object.keys(example).filter((k) => FIELD_KINDS[k] && k in value).map((k) => [k, value[k]]));
    const fromExample = { ...structuredClone(example as Json), ...overlay };
    if (schema.safeParse(fromExample).success || !schema.safeParse(value).success) value = fromExample;
  }
  return { value: value ?? {}, valid: schema.safeParse(value).success };
}

/** A query string for a flat object (arrays repeat the key). */
export function queryString(values: Json | undefined): string {
  if (!values) return "";
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) {
    for (const v of Array.isArray(value) ? value : [value]) {
      params.append(key, typeof v === "object" ? JSON.stringify(v) : String(v));
    }
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}

/** What one identity sends with a request. */
export interface Caller {
  token?: string;
  /** The refresh cookie (`jrt=…`), for page routes. */
  cookie?: string;
}

/** The answer, read whole. */
export interface Answer {
  status: number;
  text: string;
  type: string;
}

/** Sends one request. `body` is JSON unless it is a FormData. */
export async function send(
  baseUrl: string,
  method: string,
  path: string,
  caller: Caller,
  body?: unknown,
  extraHeaders: Record<string, string> = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...extraHeaders };
  if (caller.token) headers.authorization = `Bearer ${caller.token}`;
  if (caller.cookie) headers.cookie = caller.cookie;
  let payload: BodyInit | undefined;
  if (body instanceof FormData || typeof body === "string") payload = body;
  else if (body !== undefined && method !== "GET") {
    headers["content-type"] ??= "application/json";
    payload = JSON.stringify(body);
  }
  const response = await fetch(baseUrl + path, { method, headers, body: payload, redirect: "manual" });
  return { status: response.status, text: await response.text(), type: response.headers.get("content-type") ?? "" };
}

/** Operations whose example is not fit for a sweep, each with its reason. */
const NO_EXAMPLE: Record<string, string> = {
  "POST /auth/login": "the example is the demo admin's real password: the sweep would sign in as A's admin",
  "POST /users/sendemail": "the example is the demo admin's address: the sweep would send a recovery e-mail",
};

/** The request body (JSON or a form with one file) and query an endpoint is called with. */
export function requestFor(ep: Endpoint, book: IdBook, marker: string): { body?: unknown; query: string; valid: boolean } {
  const op = ep.op;
  let valid = true;
  const query = named(op?.query);
  let q = "";
  if (query) {
    const sample = sampleFor(query[1], book, marker);
    q = queryString(sample.value);
    valid &&= sample.valid;
  }
  if (ep.method === "GET") return { query: q, valid };
  const bodySchema = named(op?.body);
  if (op?.bodyKind === "multipart" || (!bodySchema && op?.multipart)) {
    const form = new FormData();
    const fields = named(op.multipart ?? op.body);
    if (fields) {
      for (const [k, v] of Object.entries(sampleFor(fields[1], book, marker).value)) {
        form.append(k, typeof v === "object" ? JSON.stringify(v) : String(v));
      }
    }
    for (const name of Object.keys(op.files ?? { file: "" })) {
      form.append(name, new File([`${marker} file`], "sweep.txt", { type: "text/plain" }));
    }
    return { body: form, query: q, valid };
  }
  if (!bodySchema) return { body: {}, query: q, valid };
  const sample = sampleFor(bodySchema[1], book, marker, ep.key in NO_EXAMPLE ? undefined : op?.example);
  return { body: sample.value, query: q, valid: valid && sample.valid };
}

/** A 32-bit FNV-1a hash of `bytes`: a byte changed anywhere changes the digest. */
function fnv1a(bytes: Uint8Array): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) hash = Math.imul(hash ^ bytes[i], 0x01000193);
  return hash >>> 0;
}

/** Serialises KV values (Uint8Array, KvU64, bigint, Date) for comparison. */
function stable(value: unknown): string {
  return JSON.stringify(value, (_k, v) => {
    if (typeof v === "bigint") return `${v}n`;
    if (v instanceof Deno.KvU64) return `${v.value}u64`;
    // Every byte counts: a message's value is bytes (actors/messages/stored.ts).
    if (v instanceof Uint8Array) return `bytes:${v.length}:${fnv1a(v)}`;
    return v;
  });
}

/** Every entry `include` accepts, key → serialised value. */
export async function kvDigest(
  kv: Deno.Kv,
  include: (key: Deno.KvKey, value: unknown) => boolean,
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for await (const entry of kv.list({ prefix: [] })) {
    if (include(entry.key, entry.value)) out.set(stable(entry.key), stable(entry.value));
  }
  return out;
}

/** Keys added, removed or changed between two digests (empty when equal). */
export function digestDiff(before: Map<string, string>, after: Map<string, string>): string[] {
  const changed: string[] = [];
  for (const [key, value] of after) {
    if (!before.has(key)) changed.push(`+${key}`);
    else if (before.get(key) !== value) changed.push(`~${key}`);
  }
  for (const key of before.keys()) if (!after.has(key)) changed.push(`-${key}`);
  return changed;
}

/** Whether `text` is the catalogue's error body `{ error: "ERR_…", message, fields? }`. */
export function isCatalogueError(text: string): boolean {
  try {
    const body = JSON.parse(text);
    return typeof body?.error === "string" && /^ERR_[A-Z0-9_]+$/.test(body.error) && typeof body.message === "string" &&
      (body.fields === undefined || (typeof body.fields === "object" && body.fields !== null));
  } catch {
    return false;
  }
}
