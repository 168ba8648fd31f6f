/**
 * Hostile input sweep (issue #24): for every operation of the OpenAPI registry with a zod
 * schema (query, JSON or multipart body, header), inputs built from that schema and then
 * broken (each required field missing, wrong types, 100 KB strings, NUL and bidi-override
 * characters, deep nesting, negative and huge numbers, another company's ids, broken and
 * non-object JSON). Every input the schema refuses must answer 4xx with the catalogue's
 * error body `{ error, message, fields? }`, and leave the store as it was (a KV digest before
 * and after); a long string must answer the schema's 400 (every string has a max,
 * tests/input_limits_test.ts), not the 413 of the body or KV size limits behind it; no input
 * may answer 5xx; the server answers /health at the end.
 */
import assert from "node:assert/strict";
import type { z } from "zod";
import { OPERATIONS } from "../server/openapi/mod.ts";
import { named, type Operation } from "../server/openapi/operation.ts";
import { type Client, withServer } from "./helpers/server.ts";
import {
  type Caller,
  digestDiff,
  type IdBook,
  isCatalogueError,
  jsonSchemaOf,
  kvDigest,
  pathsFor,
  queryString,
  sampleFor,
  send,
} from "./helpers/sweep.ts";
import { markedTenant } from "./helpers/sweep_tenant.ts";
import { createTenant } from "./helpers/tenants.ts";

/**
 * KV entries a refused request may change, each with its reason. Keys are matched by their
 * first element (the kind of record).
 */
const CHANGING_KINDS: Record<string, string> = {};

/**
 * Actors that work on their own in the background, each with its reason: their timers move
 * while the sweep runs, whatever the request.
 */
const BACKGROUND_TIMERS: Record<string, string> = {
  contact_list_checks: "the contact-list number checker re-arms itself every turn while numbers are unchecked",
};

/**
 * Findings of this sweep not fixed yet, each matched by its label and listed in the issue #24
 * report with its failing case. Remove a line when its fix lands: the test then holds it.
 */
const KNOWN_FAILURES: Array<[RegExp, string]> = [
];

/** Over every string's max (65,000 at most) and KV's 64 KiB, under the 1 MB body limit. */
const LONG = "a".repeat(100 * 1024);
const LONG_LABEL = "100 KB string";
const NUL = "nul\u0000byte";
const BIDI = "\u202Eevil\u202C";
const DEEP = JSON.parse("[".repeat(2000) + "]".repeat(2000));

// deno-lint-ignore no-explicit-any -- bodies are free-form JSON built to be wrong
type Json = any;

/** One bad input: its label, and the value that replaces the schema's part. */
interface Variant {
  label: string;
  value: Json;
  /** A raw body text instead of JSON.stringify(value). */
  raw?: string;
  /** Valid for the schema, but naming another company's records: the handler must refuse it. */
  foreign?: boolean;
}

/** A value of another JSON type than the schema node asks for. */
function wrongType(node: Json): Json {
  const type = Array.isArray(node?.type) ? node.type[0] : node?.type;
  if (type === "string") return { not: "a string" };
  if (type === "number" || type === "integer") return "not a number";
  if (type === "boolean") return "maybe";
  if (type === "array") return "not an array";
  if (type === "object") return 7;
  return [[["?"]]];
}

/** Bad variants of `base` for the object schema `schema`. */
function variantsOf(schema: z.ZodType, base: Json, otherIds: IdBook): Variant[] {
  const json = jsonSchemaOf(schema);
  const props: Record<string, Json> = json.properties ?? {};
  const required: string[] = json.required ?? [];
  const out: Variant[] = [{ label: "empty object", value: {} }, { label: "array instead of object", value: [base] }];
  out.push({ label: "null", value: null }, { label: "deeply nested", value: DEEP });
  for (const field of required) {
    const { [field]: _dropped, ...rest } = base ?? {};
    out.push({ label: `missing ${field}`, value: rest });
  }
  // Costly values (100 KB, 2000 deep, 100k items) on the first fields of their type only.
  const costly = { string: 1, deep: 1, array: 1, text: 3 };
  for (const field of Object.keys(props).slice(0, 8)) {
    const node = props[field];
    const type = Array.isArray(node.type) ? node.type.find((t: string) => t !== "null") : node.type;
    const put = (label: string, v: Json) => out.push({ label: `${field}: ${label}`, value: { ...base, [field]: v } });
    put("wrong type", wrongType(node));
    if (costly.deep-- > 0) put("nested 2000 deep", DEEP);
    if (type === "string" || node.anyOf || !type) {
      if (costly.string-- > 0) put(LONG_LABEL, LONG);
      if (costly.text-- > 0) {
        put("NUL byte", NUL);
        put("bidi override", BIDI);
      }
    }
    if (type === "number" || type === "integer") {
      put("negative", -1);
      put("huge", 1e308);
      put("unsafe integer", 2 ** 53 + 1);
    }
    if (type === "array" && costly.array-- > 0) put("100k items", Array.from({ length: 100_000 }, () => 1));
  }
  // Another company's ids in every id field the base carries.
  const theirs = sampleFor(schema, otherIds, "ZZHOSTILE").value;
  const foreign = new Set(Object.values(otherIds).flat());
  const isForeign = (v: Json) => foreign.has(v) || (Array.isArray(v) && v.length > 0 && v.every((x) => foreign.has(x)));
  const idFields = Object.keys(theirs ?? {}).filter((k) => isForeign(theirs[k]) && JSON.stringify(theirs[k]) !== JSON.stringify(base?.[k]));
  if (idFields.length) {
    const value = { ...base, ...Object.fromEntries(idFields.map((k) => [k, theirs[k]])) };
    out.push({ label: `another company's ids (${idFields.join(", ")})`, value, foreign: true });
  }
  return out;
}

/** Raw bodies that are not JSON objects at all. */
const RAW_BODIES: Variant[] = [
  { label: "broken JSON", value: undefined, raw: '{"name": "x",' },
  { label: "JSON string", value: undefined, raw: '"just a string"' },
  { label: "5 MB JSON", value: undefined, raw: JSON.stringify({ blob: "b".repeat(5 * 1024 * 1024) }) },
  { label: "deep JSON text", value: undefined, raw: "[".repeat(20_000) + "]".repeat(20_000) },
];

/** The query object as parseQuery (server/http/validate.ts) rebuilds it from the query string. */
function asQuery(value: Json): Json {
  const flat: Record<string, string | string[]> = {};
  for (const [key, v] of new URLSearchParams(queryString(value))) {
    const had = flat[key];
    flat[key] = had === undefined ? v : [...(Array.isArray(had) ? had : [had]), v];
  }
  return flat;
}

/**
 * Whether the handler's schema refuses `value`. A patch body (OperationInput.bodyKind) is
 * merged over the stored record before the schema judges it: a field left out keeps its
 * stored value, and a body that is not an object changes nothing.
 */
function schemaRefuses(op: Operation, schema: z.ZodType, value: Json): boolean {
  if (op.bodyKind !== "patch") return !schema.safeParse(value).success;
  if (!value || typeof value !== "object" || Array.isArray(value)) return false;
  const partial = (schema as unknown as { partial?: () => z.ZodType }).partial?.();
  return !(partial ?? schema).safeParse(value).success;
}

/** Waits until two digests 40 ms apart agree (at most 3 s). */
async function settled(kv: Deno.Kv, include: (key: Deno.KvKey) => boolean): Promise<void> {
  let last = await kvDigest(kv, include);
  for (let i = 0; i < 75; i++) {
    await new Promise((r) => setTimeout(r, 40));
    const next = await kvDigest(kv, include);
    if (digestDiff(last, next).length === 0) return;
    last = next;
  }
}

/** A form of the variant's top-level fields (multipart bodies). */
function formOf(value: Json): FormData {
  const form = new FormData();
  if (value && typeof value === "object" && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) form.append(k, typeof v === "string" ? v : JSON.stringify(v));
  }
  return form;
}

Deno.test("hostile input sweep: every schema's bad inputs answer 4xx in the catalogue's shape and change nothing", async () => {
  await withServer(async (server) => {
    const a = await markedTenant(server);
    const superUser = await server.login("super@balcao.local");
    const other = await createTenant(server, "Gama Hostil");
    // Records' ids are per company (B's first contact is 1, as A's): only the kinds whose ids
    // are global name another company's record for sure. The isolation sweep calls with A's ids.
    const otherIds: IdBook = { company: [other.companyId], user: [other.adminId] };
    const { kv } = server.deps;
    const token = (await a.admin.get(`/whatsapp/${a.book.whatsapp[0]}`)).body.token as string | undefined;
    const clientFor = (op: Operation): Caller => {
      if (op.auth === "connectionToken") return { token };
      const client: Client = op.access === "super" ? superUser : a.admin;
      return { token: client.token };
    };
    const stored = (key: Deno.KvKey) =>
      !(String(key[0]) in CHANGING_KINDS) && !(key[0] === "timer" && String(key[1]) in BACKGROUND_TIMERS);

    const findings: string[] = [];
    const started = Date.now();
    const bigBodyAreas = new Set<string>();
    let tried = 0;
    let acceptedBySchema = 0;
    let longRefused = 0;
    let operations = 0;
    for (const op of OPERATIONS) {
      const opKey = `${op.method.toUpperCase()} ${op.path}`;
      const headerParts = Object.entries(op.headers ?? {}).flatMap(([name, h]) => (h.schema ? [[name, h.schema] as const] : []));
      const parts = [
        ["query", named(op.query)?.[1]],
        ["body", named(op.body)?.[1]],
        ["multipart", op.body ? undefined : named(op.multipart)?.[1]],
      ] as const;
      if (!parts.some(([, s]) => s) && !headerParts.length) continue;
      operations++;
      const [path] = pathsFor(op.path, a.book);
      const caller = clientFor(op);
      const baseQuery = parts[0][1] ? sampleFor(parts[0][1], a.book, "ZZHOSTILE").value : undefined;
      const baseBody = parts[1][1] ? sampleFor(parts[1][1], a.book, "ZZHOSTILE", op.example).value : undefined;
      const tries: Array<{ label: string; query?: Json; body?: Json; raw?: string; form?: boolean; headers?: Record<string, string>; schema?: z.ZodType; value?: Json; foreign?: boolean }> = [];
      for (const [where, schema] of parts) {
        if (!schema) continue;
        for (const v of variantsOf(schema, where === "query" ? baseQuery : sampleFor(schema, a.book, "ZZHOSTILE", op.example).value, otherIds)) {
          if (where === "query") {
            // A query travels as text: a 100 KB query line is the HTTP server's limit, not the schema's.
            if (v.label.includes(LONG_LABEL) || v.label.includes("deep") || v.label.includes("100k")) continue;
            if (!v.value || typeof v.value !== "object" || Array.isArray(v.value)) continue;
            tries.push({ label: `query ${v.label}`, query: v.value, body: baseBody, schema, value: v.value, foreign: v.foreign });
          } else tries.push({ label: `${where} ${v.label}`, query: baseQuery, body: v.value, form: where === "multipart", schema, value: v.value, foreign: v.foreign });
        }
        if (where === "body" && op.bodyKind !== "multipart") {
          for (const raw of RAW_BODIES) {
            // The 5 MB body once per area: the same parse and the same (missing) limit serve them all.
            if (raw.label.startsWith("5 MB") && bigBodyAreas.has(op.tag)) continue;
            if (raw.label.startsWith("5 MB")) bigBodyAreas.add(op.tag);
            tries.push({ label: `body ${raw.label}`, query: baseQuery, raw: raw.raw });
          }
        }
      }
      for (const [name, schema] of headerParts) {
        for (const value of ["", "x".repeat(4096), "\u00e9\u00e9"]) {
          if (schema.safeParse(value).success) continue;
          tries.push({ label: `header ${name} ${value.length} chars`, query: baseQuery, body: baseBody, headers: { [name]: value } });
        }
      }
      for (const t of tries) {
        // What the schema says of the value, as the handler receives it, decides the answer.
        const refused = t.raw !== undefined || t.headers !== undefined || (t.foreign && op.method !== "get") ||
          (!t.foreign && schemaRefuses(op, t.schema!, t.label.startsWith("query") ? asQuery(t.value) : t.form ? Object.fromEntries(formOf(t.value).entries()) : t.value));
        // Super acts on every company: another company's ids are not foreign to it.
        if (t.foreign && op.access === "super") continue;
        if (!refused) {
          acceptedBySchema++;
          if (op.method === "delete") continue;
        }
        // An all-optional schema takes the 5 MB body: on a delete it would really delete.
        if (op.method === "delete" && t.label.includes("5 MB")) continue;
        // A read has no write to make: the store is compared around writes only.
        const write = op.method !== "get";
        const before = write ? await kvDigest(kv, stored) : undefined;
        const body = t.raw ?? (t.form ? formOf(t.body) : t.body);
        const answer = await send(server.url, op.method.toUpperCase(), path + queryString(t.query), caller, body, t.headers ?? {});
        tried++;
        const label = `${opKey} ${t.label}`;
        if (answer.status >= 500) {
          findings.push(`${label}: ${answer.status} ${answer.text.slice(0, 120)}`);
          continue;
        }
        if (!refused) {
          // An accepted write may finish after its answer (a send's outbox): let it settle.
          if (write && answer.status < 300) await settled(kv, stored);
          continue;
        }
        if (answer.status < 400) findings.push(`${label}: answered ${answer.status} to a value its schema refuses`);
        else if (t.label.endsWith(LONG_LABEL)) {
          // The schema's 400, or an earlier refusal (a record not found first, a closed sign-up),
          // never the 413 of the size limits behind the schemas.
          if (answer.status === 413) findings.push(`${label}: answered 413 (a size limit), not the schema's 400`);
          else if (answer.status === 400) longRefused++;
        }
        else if (!isCatalogueError(answer.text)) findings.push(`${label}: ${answer.status} not in the catalogue's shape: ${answer.text.slice(0, 120)}`);
        const changed = before ? digestDiff(before, await kvDigest(kv, stored)) : [];
        if (changed.length) findings.push(`${label}: changed the store: ${changed.slice(0, 3).join(" ")}`);
      }
    }
    const health = await fetch(`${server.url}/health`);
    assert.equal((await health.json()).status, "ok");
    console.log(
      `hostile input sweep: ${operations} operations with a schema, ${tried} bad inputs sent ` +
        `(${acceptedBySchema} variants the schema accepts were sent only for 5xx; ${longRefused} long strings answered 400), ` +
          `${findings.length} findings`,
      `in ${Math.round((Date.now() - started) / 1000)} s`,
    );
    const known = findings.filter((f) => KNOWN_FAILURES.some(([pattern]) => pattern.test(f)));
    console.log(`known failures (issue #24 report): ${known.length}\n  ${known.join("\n  ")}`);
    assert.deepEqual(findings.filter((f) => !known.includes(f)), []);
  });
});
