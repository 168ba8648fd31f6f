/**
 * The OpenAPI document (issue #22) against the code: a walk of the Hono app's route table
 * fails when an endpoint is missing from the document (or documented but not routed), and a
 * probe proves each documented query/body schema is the very object the handler validates
 * with: the schema's `safeParse` is replaced by a spy that records the call and fails, so
 * a real request to a real server answers the probe's 400 only when the handler parsed with
 * that object (and stops there: nothing is created or sent).
 */
import assert from "node:assert/strict";
import { z } from "zod";
import { demoRecords, recordPath } from "./helpers/demo_records.ts";
import { whatsapps } from "../actors/whatsapps/collection.ts";
import { OPERATIONS, openApiDocument } from "../server/openapi/mod.ts";
import { named, type Operation } from "../server/openapi/operation.ts";
import { eventually } from "./helpers/channels.ts";
import { type Client, type TestServer, withServer } from "./helpers/server.ts";
import { routedEndpoints } from "./helpers/sweep.ts";

/**
 * Routes the document leaves out, each with its reason. Page routes are not in the table at
 * all: the page router is a middleware that answers HTML GETs before the API.
 */
const EXCLUDED: Record<string, string> = {
  "GET /build/:file": "island bundles built at start-up (static assets, not an API)",
  "GET /static/*": "CSS, icons and fonts (static files, not an API)",
};

const key = (op: Operation) => `${op.method.toUpperCase()} ${op.path}`;

Deno.test("the OpenAPI document covers every route of the app, and only routes of the app", () => {
  const routed = routedEndpoints();
  const documented = new Set(OPERATIONS.map(key));
  const missing = [...routed].filter((endpoint) => {
    if (documented.has(endpoint) || endpoint in EXCLUDED) return false;
    // routeWithSlash (server/api/slash.ts) answers `/tags/` as `/tags`: an alias, documented once.
    const [method, path] = endpoint.split(" ");
    return !(path.length > 1 && path.endsWith("/") && documented.has(`${method} ${path.slice(0, -1)}`));
  });
  assert.deepEqual(missing, [], `Undocumented endpoints: add a line for each to server/openapi/ops_*.ts`);
  const stale = [...documented].filter((endpoint) => !routed.has(endpoint));
  assert.deepEqual(stale, [], "Documented endpoints that no route answers");
  for (const excluded of Object.keys(EXCLUDED)) assert.ok(routed.has(excluded), `${excluded} is excluded but not routed`);
});

Deno.test("openApiDocument() is OpenAPI 3.1 whose references all resolve", () => {
  const doc = openApiDocument();
  assert.equal(doc.openapi, "3.1.0");
  const text = JSON.stringify(doc);
  for (const [, name] of text.matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)) {
    assert.ok(doc.components.schemas[name], `$ref to a missing component ${name}`);
  }
  const ids = new Set<string>();
  for (const [path, item] of Object.entries<Record<string, { operationId: string; parameters: { name: string; in: string }[] }>>(doc.paths)) {
    for (const op of Object.values(item)) {
      assert.ok(!ids.has(op.operationId), `operationId ${op.operationId} twice`);
      ids.add(op.operationId);
      const declared = op.parameters.filter((p) => p.in === "path").map((p) => p.name).sort();
      const inPath = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      assert.deepEqual(declared, inPath, `path parameters of ${path}`);
    }
  }
  assert.ok(doc.components.securitySchemes.bearerAuth && doc.components.securitySchemes.connectionToken);
  assert.match(JSON.stringify(doc.webhooks), /X-Balcao-Signature/);
  assert.ok(doc.components.schemas.ErrorBody.properties.error.enum.includes("ERR_OTHER_OPEN_TICKET"));
});

Deno.test("every request example of the document is accepted by its body schema", () => {
  let checked = 0;
  for (const op of OPERATIONS) {
    if (op.example === undefined) continue;
    const [name, schema] = named(op.body) ?? assert.fail(`${key(op)} has an example but no body`);
    const result = schema.safeParse(op.example);
    assert.ok(result.success, `${key(op)}: the example is refused by ${name}: ${JSON.stringify(result.error?.issues)}`);
    checked++;
  }
  assert.ok(checked >= 15, `only ${checked} examples`);
});

/** Replaces `schema.safeParse` by a spy that counts and fails; returns the restore function. */
function probe(schema: z.ZodType, onCall: () => void): () => void {
  const target = schema as unknown as Record<string, unknown>;
  const had = Object.hasOwn(target, "safeParse");
  const own = target.safeParse;
  target.safeParse = () => {
    onCall();
    return { success: false, error: new z.ZodError([{ code: "custom", message: "openapi probe", path: ["probe"], input: undefined }]) };
  };
  return () => {
    if (had) target.safeParse = own;
    else delete target.safeParse;
  };
}

/** Values for path parameters that reach the handlers' parsing in the demo tenant. */
function pathFor(op: Operation, ids: Record<string, string>): string {
  return recordPath(op.path, ids, () => "1");
}

/** Sends `op` once with its example (or an empty body, or a form) as `client`. */
function call(client: Client, op: Operation, path: string, multipart: boolean, token?: string): Promise<Response> {
  // Every header the operation documents, with a value its schema would accept.
  const headers: Record<string, string> = Object.fromEntries(Object.keys(op.headers ?? {}).map((name) => [name, "probe-1"]));
  const bearer = token ?? client.token;
  if (bearer) headers.authorization = `Bearer ${bearer}`;
  if (op.method === "get") return fetch(client.baseUrl + path, { headers });
  if (multipart) {
    const form = new FormData();
    form.append("probe", "1");
    form.append("medias", new File(["probe"], "probe.txt", { type: "text/plain" }));
    return fetch(client.baseUrl + path, { method: op.method.toUpperCase(), headers, body: form });
  }
  headers["content-type"] = "application/json";
  return fetch(client.baseUrl + path, { method: op.method.toUpperCase(), headers, body: JSON.stringify(op.example ?? {}) });
}

/**
 * Ids of the demo tenant's records for the path parameters (tests/helpers/demo_records.ts),
 * plus what only this probe needs: the connection's token and a sent survey's public key.
 */
async function demoIds(server: TestServer, admin: Client): Promise<Record<string, string>> {
  const records = await demoRecords(server, admin);
  const conn = (await whatsapps.in(server.deps.system, server.demo!.companyId).list())[0];
  // A survey sent to the record's customer: its link's key opens the public survey routes.
  await admin.put("/settings/ratingurl", { value: "https://balcao.test/survey" });
  const sent = await admin.post(`/ratings/messages/${records.ticketId}`, { ratingId: Number(records["/ratings/:id id"]) });
  assert.equal(sent.status, 200, JSON.stringify(sent.body));
  const key = await eventually(async () => {
    const outbox = (await admin.get(`/simulator/${conn.id}/outbox`)).body.messages as { body: string }[];
    return outbox.map((m) => /chavePesquisa=([\w-]+)/.exec(m.body)?.[1]).find(Boolean);
  }, 10_000, "the survey link in the simulator's outbox");
  return {
    ...records,
    companyId: String(server.demo!.companyId),
    connectionToken: conn.token,
    "/settings/:key key": "emfila",
    chavePesquisa: key,
  };
}

Deno.test("each documented query and body schema is the object its handler validates with", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const superUser = await server.login("super@balcao.local");
    const ids = await demoIds(server, admin);
    // Sign-up refuses before reading its body while the platform has it switched off.
    assert.equal((await superUser.put("/settings/allowregister", { value: "enabled" })).status, 200);
    const misses: string[] = [];
    let probed = 0;
    for (const op of OPERATIONS) {
      const headerSchemas = Object.entries(op.headers ?? {}).flatMap(([name, h]) => (h.schema ? [{ [name]: h.schema }] : []));
      for (const part of [op.query, op.body, op.multipart, ...headerSchemas]) {
        const entry = named(part);
        const multipart = part === op.multipart || (part === op.body && op.bodyKind === "multipart");
        if (!entry) continue;
        const [name, schema] = entry;
        const client = op.access === "super" ? superUser : admin;
        const token = op.auth === "connectionToken" ? ids.connectionToken : undefined;
        let calls = 0;
        const restore = probe(schema, () => calls++);
        let status = 0;
        try {
          const response = await call(client, op, pathFor(op, ids), multipart, token);
          status = response.status;
          await response.body?.cancel();
        } finally {
          restore();
        }
        probed++;
        if (calls === 0) misses.push(`${key(op)} ${name} (answered ${status})`);
      }
    }
    assert.deepEqual(misses, [], `Handlers that did not validate with the documented schema`);
    // The probe can fail: a schema the handler does not use is not called.
    let stray = 0;
    const restore = probe(OPERATIONS.find((op) => key(op) === "POST /tags")!.body!.TagInput, () => stray++);
    try {
      await (await call(admin, OPERATIONS.find((op) => key(op) === "POST /oportunidade")!, "/oportunidade", false)).body?.cancel();
    } finally {
      restore();
    }
    assert.equal(stray, 0);
    assert.ok(probed > 60, `probed ${probed}`);
  });
});
