/**
 * Every input the API takes has a bound (issue #24): a walk of the OpenAPI document, whose
 * request schemas are the zod schemas the handlers validate with (tests/openapi_test.ts proves
 * that), so a route added tomorrow is walked without anyone listing it. In every query,
 * header and body schema (JSON and multipart), following `$ref`s:
 * - every string has a `maxLength` (an enum or a constant is bounded by its values; an
 *   uploaded file's bytes are bounded by the upload limits, server/api/upload_field.ts),
 * - every array a `maxItems`, every map (`additionalProperties`) a `maxProperties`,
 * - every non-integer number a `minimum` and a `maximum`, or a listed reason why not
 *   (integers are bounded by zod to the safe-integer range, which the document omits).
 * A long string then answers 400 'Too Long!' from the schema, before KV's 64 KiB or the 1 MB
 * body limit answers 413 (tests/sweep_hostile_test.ts checks the answers).
 */
import assert from "node:assert/strict";
import { openApiDocument } from "../server/openapi/mod.ts";

// deno-lint-ignore no-explicit-any -- the document is free-form JSON
type Json = Record<string, any>;

/** Non-integer numbers left without a range, by the place the walk names, with the reason. */
const UNBOUNDED_NUMBERS: Record<string, string> = {
  "SettingUpdate.value|1": "stored as its text, like a string value; KV's limits bound that text",
};

/**
 * Gaps found in another area's work in progress, reported to its engineers (issue #24 report)
 * rather than fixed here: printed on every run, not failed. Remove a line once bounded.
 */
const REPORTED_GAPS: Record<string, string> = {};

/** The request parts of every operation: query and header parameters, body media types. */
function requestParts(doc: Json): Array<[string, Json]> {
  const parts: Array<[string, Json]> = [];
  for (const [path, methods] of Object.entries<Json>(doc.paths)) {
    for (const [method, op] of Object.entries<Json>(methods)) {
      const at = `${method.toUpperCase()} ${path}`;
      for (const p of op.parameters ?? []) if (p.in !== "path") parts.push([`${at} ${p.in} ${p.name}`, p.schema]);
      for (const [type, content] of Object.entries<Json>(op.requestBody?.content ?? {})) {
        parts.push([`${at} ${type}`, content.schema]);
      }
    }
  }
  return parts;
}

/** The places in `root` (following references into `components`) that lack a bound. */
function unbounded(root: Json, where: string, components: Json, walked: Set<string>): string[] {
  const out: string[] = [];
  const visit = (node: Json | undefined, at: string) => {
    if (!node || typeof node !== "object") return;
    if (typeof node.$ref === "string") {
      const name = node.$ref.split("/").pop()!;
      // A component is walked once, under its own name (so patch bodies inline it again).
      if (!walked.has(name)) {
        walked.add(name);
        visit(components[name], name);
      }
      return;
    }
    const types: string[] = Array.isArray(node.type) ? node.type : node.type ? [node.type] : [];
    const fixed = node.enum !== undefined || node.const !== undefined;
    if (types.includes("string") && node.maxLength === undefined && !fixed && node.contentMediaType === undefined) {
      out.push(`${at}: string without maxLength`);
    }
    if (types.includes("array") && node.maxItems === undefined) out.push(`${at}: array without maxItems`);
    if (typeof node.additionalProperties === "object" && node.maxProperties === undefined) {
      out.push(`${at}: map without maxProperties`);
    }
    const ranged = (node.maximum ?? node.exclusiveMaximum) !== undefined && (node.minimum ?? node.exclusiveMinimum) !== undefined;
    if (types.includes("number") && !ranged && !fixed && !(at in UNBOUNDED_NUMBERS)) out.push(`${at}: number without a range`);
    for (const [key, child] of Object.entries<Json>(node.properties ?? {})) visit(child, `${at}.${key}`);
    if (node.items) visit(node.items, `${at}[]`);
    if (typeof node.additionalProperties === "object") visit(node.additionalProperties, `${at}{}`);
    for (const key of ["anyOf", "oneOf", "allOf", "prefixItems"]) {
      for (const [i, child] of (node[key] ?? []).entries()) visit(child, `${at}|${i}`);
    }
  };
  visit(root, where);
  return out;
}

Deno.test("every string, array and number of every route's input schema has a bound", () => {
  const doc = openApiDocument();
  const components: Json = doc.components.schemas;
  const walked = new Set<string>();
  const parts = requestParts(doc);
  const findings = parts.flatMap(([where, schema]) => unbounded(schema, where, components, walked));
  console.log(`input bounds: ${parts.length} request parts of ${Object.keys(doc.paths).length} paths, ${walked.size} input schemas walked`);
  assert.ok(parts.length > 200 && walked.size > 50, "the walk reached the document's inputs");
  const reported = findings.filter((f) => f in REPORTED_GAPS);
  if (reported.length) console.log(`reported, not failed:\n  ${reported.map((f) => `${f} (${REPORTED_GAPS[f]})`).join("\n  ")}`);
  assert.deepEqual(findings.filter((f) => !(f in REPORTED_GAPS)), []);
  // The listed exceptions still exist (a stale line would hide nothing, but misleads).
  for (const at of Object.keys(UNBOUNDED_NUMBERS)) {
    const [name] = at.split(/[.|]/);
    assert.ok(walked.has(name), `${at} is listed but ${name} is no longer an input schema`);
  }
});

Deno.test("the walk finds an unbounded string, array, map and number", () => {
  const components = {
    Loose: {
      type: "object",
      properties: {
        name: { type: "string" },
        ids: { type: "array", items: { type: "integer" } },
        extra: { type: "object", additionalProperties: { type: "string", maxLength: 5 } },
        price: { type: "number", minimum: 0 },
        kind: { type: "string", enum: ["a", "b"] },
        file: { type: "array", maxItems: 1, items: { type: "string", contentMediaType: "application/octet-stream" } },
      },
    },
  };
  assert.deepEqual(unbounded({ $ref: "#/components/schemas/Loose" }, "POST /x", components, new Set()), [
    "Loose.name: string without maxLength",
    "Loose.ids: array without maxItems",
    "Loose.extra: map without maxProperties",
    "Loose.price: number without a range",
  ]);
});
