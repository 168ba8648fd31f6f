/**
 * Builds the OpenAPI 3.1 document from the declared operations: every request schema is the
 * zod object the handler validates with, turned into JSON Schema (2020-12, OpenAPI 3.1's
 * dialect) by zod 4's `z.toJSONSchema` — request schemas as the client writes them
 * (`io: "input"`), responses as the server writes them (`io: "output"`).
 */
import { z } from "zod";
import { ErrorCode } from "../../domain/errors.ts";
import { SIGNATURE_HEADER } from "../channels/webhook.ts";
import { type Auth, named, type Named, type Operation } from "./operation.ts";
import { ConnectionWebhookEvent, ErrorBody, SubscriptionWebhookEvent } from "./shapes.ts";
import { WEBHOOK_HEADERS } from "../../domain/webhook.ts";
import { TAG_DESCRIPTIONS } from "./tags.ts";

/** A JSON Schema / OpenAPI object (plain JSON). */
// deno-lint-ignore no-explicit-any -- the document is free-form JSON assembled here
type Json = Record<string, any>;

const REF = (name: string) => `#/components/schemas/${name}`;
const MAX = Number.MAX_SAFE_INTEGER;

/** Removes the noise zod adds that says nothing to a reader (safe-integer bounds, per-schema `$schema`). */
function tidy(node: unknown, output: boolean): unknown {
  if (Array.isArray(node)) return node.map((n) => tidy(n, output));
  if (!node || typeof node !== "object") return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "$schema" || key === "$id") continue;
    if ((key === "maximum" && value === MAX) || (key === "minimum" && value === -MAX)) continue;
    // Views add computed keys (counts, names) to the stored records the schemas describe.
    if (output && key === "additionalProperties" && value === false) continue;
    out[key] = tidy(value, output);
  }
  return out;
}

/** Components of one direction: names → schema objects, checked for clashes. */
class SchemaSet {
  readonly byName = new Map<string, z.ZodType>();
  add(value: Named | undefined): string | undefined {
    const entry = named(value);
    if (!entry) return undefined;
    const [name, schema] = entry;
    const known = this.byName.get(name);
    if (known && known !== schema) throw new Error(`Two different schemas are named ${name} in the OpenAPI document`);
    this.byName.set(name, schema);
    return name;
  }
  convert(io: "input" | "output"): Json {
    const registry = z.registry<{ id: string }>();
    for (const [id, schema] of this.byName) registry.add(schema, { id });
    const { schemas } = z.toJSONSchema(registry, { io, unrepresentable: "any", uri: REF });
    return tidy(schemas, io === "output") as Json;
  }
}

/** Path ids that are not a record's integer id: a simulated charge's (`sim…`) and a webhook delivery's. */
const NOT_INTEGER_IDS: Record<string, Json> = {
  chargeId: { type: "string" },
  deliveryId: { type: "string", format: "uuid" },
};

/**
 * Path in OpenAPI form, and its parameters: `/tags/:id` → `/tags/{id}`, with the names the
 * operation gives the document (`pathNames`) where they differ from the route's.
 */
function pathOf(op: Operation): { path: string; params: Json[] } {
  const params: Json[] = [];
  const converted = op.path.replace(/:(\w+)(\{([^/]+)\})?/g, (_all, name: string, _braces, pattern?: string) => {
    const numeric = !pattern && (name === "id" || name.endsWith("Id"));
    const schema = pattern
      ? { type: "string", pattern: `^${pattern}$` }
      : NOT_INTEGER_IDS[name] ?? (numeric ? { type: "integer", minimum: 1 } : { type: "string" });
    const renamed = op.pathNames?.[name];
    params.push({ name: renamed?.as ?? name, in: "path", required: true, ...(renamed ? { description: renamed.description } : {}), schema });
    return `{${renamed?.as ?? name}}`;
  });
  return { path: converted, params };
}

/** A path's template without its parameters' names: `/messages/{}` for `/messages/{id}`. */
const templateOf = (path: string) => path.replace(/\{[^}]*\}/g, "{}");

/** A query object's keys as `in: query` parameters. */
function queryParams(value: Named | undefined): Json[] {
  const entry = named(value);
  if (!entry) return [];
  const schema = tidy(z.toJSONSchema(entry[1], { io: "input", unrepresentable: "any" }), false) as Json;
  const required = new Set<string>(schema.required ?? []);
  return Object.entries<Json>(schema.properties ?? {}).map(([name, property]) => ({
    name,
    in: "query",
    required: required.has(name),
    ...(property.description ? { description: property.description } : {}),
    schema: property,
    ...(property.type === "array" ? { style: "form", explode: true } : {}),
  }));
}

/** The headers an operation reads as `in: header` parameters. */
function headerParams(op: Operation): Json[] {
  return Object.entries(op.headers ?? {}).map(([name, header]) => ({
    name,
    in: "header",
    required: header.required ?? false,
    description: header.description,
    schema: header.schema ? tidy(z.toJSONSchema(header.schema, { io: "input", unrepresentable: "any" }), false) : { type: "string" },
  }));
}

const SECURITY: Record<Auth, Json[]> = {
  bearer: [{ bearerAuth: [] }],
  connectionToken: [{ connectionToken: [] }],
  refreshCookie: [{ refreshCookie: [] }],
  none: [],
  signature: [],
};

/** The request body: JSON (whole or patch), and/or multipart with files. */
function requestBody(op: Operation, inputs: SchemaSet, components: Json): Json | undefined {
  const content: Json = {};
  const bodyName = inputs.add(op.body);
  if (bodyName && op.bodyKind !== "multipart") {
    // A patch's fields are merged over the stored record first: none is required on the wire.
    const schema = op.bodyKind === "patch" ? { ...components[bodyName], required: undefined } : { $ref: REF(bodyName) };
    content["application/json"] = { schema, ...(op.example !== undefined ? { example: op.example } : {}) };
  }
  const formName = inputs.add(op.multipart) ?? (op.bodyKind === "multipart" ? bodyName : undefined);
  if (formName || op.files) {
    const fields: Json = formName ? { ...(components[formName]?.properties ?? {}) } : {};
    for (const [file, what] of Object.entries(op.files ?? {})) {
      const { description, maxItems } = typeof what === "string" ? { description: what, maxItems: 1 } : what;
      fields[file] = { type: "array", items: { type: "string", contentMediaType: "application/octet-stream" }, maxItems, description };
    }
    content["multipart/form-data"] = { schema: { type: "object", properties: fields } };
  }
  if (Object.keys(content).length === 0) return undefined;
  return { required: true, content };
}

function successResponse(op: Operation, outputs: SchemaSet): [string, Json] {
  if (op.response === "websocket") return ["101", { description: "Switching Protocols (WebSocket)" }];
  if (typeof op.response === "string") {
    return ["200", { description: "OK", content: { [op.response]: { schema: { type: "string", contentMediaType: op.response } } } }];
  }
  const name = outputs.add(op.response);
  return [op.created ? "201" : "200", {
    description: op.created ? "Created" : "OK",
    content: { "application/json": { schema: name ? { $ref: REF(name) } : {} } },
  }];
}

function errorResponses(op: Operation): Json {
  const error = (description: string, codes: readonly string[]) => ({
    description: `${description}: ${codes.map((c) => `\`${c}\``).join(", ")}`,
    content: { "application/json": { schema: { $ref: REF("ErrorBody") } } },
  });
  const responses: Json = {};
  if (op.query || op.body || op.multipart || op.files) responses["400"] = error("Invalid request (`fields` names each failing field)", ["ERR_VALIDATION"]);
  if (op.auth === "bearer" || op.auth === "connectionToken" || op.auth === "refreshCookie") {
    responses["401"] = error("Missing, expired or revoked credentials", ["ERR_SESSION_EXPIRED"]);
  }
  if (op.access) responses["403"] = error(`Needs ${op.access}`, ["ERR_NO_PERMISSION"]);
  if (op.errors?.length) responses["4XX"] = error("Other failures of this operation", op.errors);
  responses["500"] = error("Unexpected failure", ["ERR_INTERNAL"]);
  return responses;
}

function operationId(op: Operation): string {
  const words = op.path.replace(/\{[^}]*\}/g, "").split(/[^A-Za-z0-9]+/).filter(Boolean);
  return op.method + words.map((w) => w[0].toUpperCase() + w.slice(1)).join("");
}

const SECURITY_SCHEMES: Json = {
  bearerAuth: {
    type: "http",
    scheme: "bearer",
    bearerFormat: "JWT",
    description: "The access token of `POST /auth/login` (short-lived; renew with `POST /auth/refresh_token`).",
  },
  connectionToken: {
    type: "http",
    scheme: "bearer",
    description: "A connection's token (Connections → edit → token), for `POST /api/messages/send` only.",
  },
  refreshCookie: {
    type: "apiKey",
    in: "cookie",
    name: "jrt",
    description: "The httpOnly refresh cookie set by `POST /auth/login`.",
  },
};

/**
 * The outbound webhooks the product calls (OpenAPI 3.1 `webhooks`). Their `security` is
 * empty on purpose: the receiver checks an HMAC of the body (described with each), which no
 * OpenAPI security scheme can express.
 */
function webhooks(): Json {
  return {
    connectionMessage: {
      post: {
        tags: ["Outbound webhooks"],
        operationId: "connectionMessage",
        security: [],
        summary: "Each inbound message, POSTed to the connection's `webhook` URL",
        description: [
          `Signed: \`${SIGNATURE_HEADER}: sha256=<hex>\` where hex is HMAC-SHA256 of the raw body keyed by the`,
          "connection's token. Verify it over the exact bytes received before parsing. Delivered at least",
          "once, in order per ticket, retried with exponential backoff for 24 h (same queue as the",
          "subscriptions below); a slow or failing receiver never delays message handling.",
        ].join(" "),
        parameters: [{
          name: SIGNATURE_HEADER,
          in: "header",
          required: true,
          schema: { type: "string", pattern: "^sha256=[0-9a-f]{64}$" },
          example: "sha256=5d5b09f6dcb2d53a5fffc60c4ac0d55fabdf556069d6631545f42aa6e3500f2e",
        }],
        requestBody: { required: true, content: { "application/json": { schema: { $ref: REF("ConnectionWebhookEvent") } } } },
        responses: { "2XX": { description: "Received (any other answer is retried)" } },
      },
    },
    companySubscription: {
      post: {
        tags: ["Outbound webhooks"],
        operationId: "companySubscription",
        security: [],
        summary: "Each chosen event, POSTed to a company's subscription URL (/webhooks/subscriptions)",
        description: [
          `Signed: \`${WEBHOOK_HEADERS.signature}: sha256=<hex>\` where hex is HMAC-SHA256, keyed by the`,
          `subscription's secret, of \`${WEBHOOK_HEADERS.timestamp} + "." + raw body\`. Compare in constant`,
          "time and refuse timestamps older than 5 minutes. Delivered at least once, in order per ticket,",
          "retried with exponential backoff for 24 h, then marked failed in the delivery log.",
        ].join(" "),
        parameters: [
          { name: WEBHOOK_HEADERS.event, in: "header", required: true, schema: { type: "string" }, example: "message.created" },
          { name: WEBHOOK_HEADERS.delivery, in: "header", required: true, schema: { type: "string", format: "uuid" } },
          { name: WEBHOOK_HEADERS.timestamp, in: "header", required: true, schema: { type: "string", pattern: "^[0-9]+$" } },
          { name: WEBHOOK_HEADERS.signature, in: "header", required: true, schema: { type: "string", pattern: "^sha256=[0-9a-f]{64}$" } },
        ],
        requestBody: { required: true, content: { "application/json": { schema: { $ref: REF("SubscriptionWebhookEvent") } } } },
        responses: { "2XX": { description: "Received (any other answer is retried)" } },
      },
    },
  };
}

/**
 * The schemas that `roots` reach through `$ref`s, directly or through other schemas. A form
 * schema is copied into its multipart body rather than referenced, so one that no JSON body
 * uses (ExternalMediaInput) would otherwise stay listed without a reader.
 */
function referenced(schemas: Json, roots: unknown[]): Json {
  const kept: Json = {};
  const visit = (node: unknown) => {
    for (const [, name] of JSON.stringify(node).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)) {
      if (name in kept || !(name in schemas)) continue;
      kept[name] = schemas[name];
      visit(schemas[name]);
    }
  };
  roots.forEach(visit);
  return Object.fromEntries(Object.keys(schemas).filter((name) => name in kept).map((name) => [name, schemas[name]]));
}

/** The whole document for `operations`. Throws when two schemas share a name or two operations a path. */
export function buildDocument(operations: readonly Operation[]): Json {
  const inputs = new SchemaSet();
  const outputs = new SchemaSet();
  outputs.add({ ErrorBody });
  outputs.add({ ConnectionWebhookEvent });
  outputs.add({ SubscriptionWebhookEvent });
  for (const op of operations) {
    inputs.add(op.body);
    inputs.add(op.multipart);
    if (typeof op.response === "object") outputs.add(op.response);
  }
  const inputSchemas = inputs.convert("input");
  const outputSchemas = outputs.convert("output");
  for (const name of Object.keys(inputSchemas)) {
    if (name in outputSchemas) throw new Error(`${name} names both a request and a response schema`);
  }
  const schemas = { ...inputSchemas, ...outputSchemas };

  const paths: Json = {};
  const ids = new Set<string>();
  const templates = new Map<string, string>();
  for (const op of operations) {
    const { path, params } = pathOf(op);
    const known = templates.get(templateOf(path)) ?? path;
    if (known !== path) {
      throw new Error(`${op.method.toUpperCase()} ${path} and ${known} are one path template: name the parameters alike (pathNames)`);
    }
    templates.set(templateOf(path), path);
    paths[path] ??= {};
    if (paths[path][op.method]) throw new Error(`${op.method.toUpperCase()} ${op.path} is declared twice`);
    let id = operationId(op);
    while (ids.has(id)) id += "_";
    ids.add(id);
    const [status, success] = successResponse(op, outputs);
    const notes = [op.description, op.access ? `Requires: ${op.access}.` : undefined].filter(Boolean).join("\n\n");
    paths[path][op.method] = {
      tags: [op.tag],
      operationId: id,
      summary: op.summary,
      ...(notes ? { description: notes } : {}),
      security: SECURITY[op.auth],
      ...(op.access ? { "x-access": op.access } : {}),
      parameters: [...params, ...queryParams(op.query), ...headerParams(op)],
      ...(() => {
        const body = requestBody(op, inputs, schemas);
        return body ? { requestBody: body } : {};
      })(),
      responses: { [status]: success, ...errorResponses(op) },
    };
  }

  const tags = [...new Set(operations.map((op) => op.tag)), "Outbound webhooks"]
    .map((name) => ({ name, ...(TAG_DESCRIPTIONS[name] ? { description: TAG_DESCRIPTIONS[name] } : {}) }));
  const hooks = webhooks();
  return {
    openapi: "3.1.0",
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    info: {
      title: "Balcão API",
      version: "1.0.0",
      description: [
        "Every HTTP endpoint of Balcão. Request schemas are the zod schemas the server validates with.",
        "Errors are `{ error, message, fields }` with a code of the catalogue (`x-error-codes`).",
        "Collection paths also answer with a trailing slash (`/tags/` as `/tags`), as the web client calls both.",
      ].join(" "),
    },
    servers: [{ url: "/" }],
    tags,
    paths,
    webhooks: hooks,
    components: { schemas: referenced(schemas, [paths, hooks]), securitySchemes: SECURITY_SCHEMES },
    "x-error-codes": [...ErrorCode],
  };
}
