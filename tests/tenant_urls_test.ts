/**
 * Issue #38, item 3: a tenant admin points each URL the server fetches for it at a service on
 * the server's own loopback (`http://127.0.0.1:{port}`, as `urlN8N = http://127.0.0.1:8377`
 * in the report): n8n (`urlN8N`, a queue's or option's n8n URL), Typebot's builder
 * (`urlTypebot`) and viewer (`urlBotTypebot`), the AI module's endpoint and a connection's
 * webhook. Each is refused without the service seeing a request, the error never carries the
 * service's body, and a refused address reads exactly like a closed port. The operator's
 * BALCAO_INTEGRATION_ALLOW_PRIVATE lets a named host through, still without the body.
 */
import assert from "node:assert/strict";
import { deliveryLog } from "../actors/webhooks/mod.ts";
import { askN8n } from "../server/integrations/n8n.ts";
import { typebotCall } from "../server/integrations/typebot.ts";
import { demoConnection, eventually } from "./helpers/channels.ts";
import { demoTicket } from "./helpers/fixtures.ts";
import { type Client, type TestServer, withServer } from "./helpers/server.ts";

/** What the internal service answers: a body no tenant may ever read. */
const SECRET_BODY = JSON.stringify({ secret: "internal-only-7f3a" });

/** A loopback service that counts every request it gets. */
function internalService() {
  let hits = 0;
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, () => {
    hits++;
    return new Response(SECRET_BODY, { status: 404, headers: { "content-type": "application/json" } });
  });
  return { url: `http://127.0.0.1:${server.addr.port}`, port: server.addr.port, hits: () => hits, close: () => server.shutdown() };
}

/** A loopback port nothing listens on. */
function closedPort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

async function setting(admin: Client, key: string, value: string) {
  const r = await admin.put(`/settings/${key}`, { value });
  assert.equal(r.status, 200, `${key}: ${JSON.stringify(r.body)}`);
}

async function aiEndpoint(admin: Client, endpoint: string) {
  for (const [key, value] of Object.entries({ "form-endpoint": endpoint, model: "m", "system-message": "x", "data-description": "y" })) {
    const created = await admin.post("/ai-module", { key, value });
    const r = created.status === 201 ? created : await admin.put("/ai-module", { key, value });
    assert.ok(r.status < 300, `${key}: ${JSON.stringify(r.body)}`);
  }
}

/**
 * Each surface's answer when its URL is `base`: the HTTP status and body of the API call, or
 * the error text of a call a conversation makes (askN8n, typebotCall).
 */
async function attempts(server: TestServer, admin: Client, ticketId: number, base: string) {
  await setting(admin, "urlN8N", base);
  await setting(admin, "apiKeyN8N", "n8n-key");
  await setting(admin, "urlTypebot", base);
  await setting(admin, "urlBotTypebot", base);
  await setting(admin, "tokenTypebot", "typebot-token");
  await aiEndpoint(admin, `${base}/v1/chat/completions`);
  const companyId = server.demo!.companyId;
  const n8nList = await admin.get("/n8n/listworkFlow");
  const typebotList = await admin.get("/typebot/listworkspaces");
  const suggest = await admin.post(`/ai-module/suggest/${ticketId}`);
  const n8nTurn = await askN8n(server.deps, { companyId, ticketId, url: `${base}/webhook/fila`, text: "oi" });
  const typebotTurn = await typebotCall(server.deps, null, { companyId, ticketId, queueId: server.demo!.queueIds[0], service: "typebot", text: "oi" }, "bot");
  return {
    n8nList: [n8nList.status, n8nList.body],
    typebotList: [typebotList.status, typebotList.body],
    suggest: [suggest.status, suggest.body],
    n8nTurn: n8nTurn.ok ? "ok" : n8nTurn.error,
    typebotTurn: typebotTurn.error,
  };
}

/** What every surface answers for an address it may not reach. */
const UNREACHABLE = {
  n8nList: [502, { error: "ERR_INTEGRATION_FAILED", message: "n8n is unreachable" }],
  typebotList: [502, { error: "ERR_INTEGRATION_FAILED", message: "Typebot is unreachable" }],
  suggest: [502, { error: "ERR_INTEGRATION_FAILED", message: "The AI endpoint is unreachable" }],
  n8nTurn: "n8n is unreachable",
  typebotTurn: "Typebot is unreachable",
};

Deno.test("a tenant's integration URLs on loopback are refused: no request reaches the service, no body comes back, the same text as a closed port", async () => {
  const internal = internalService();
  try {
    await withServer(async (server) => {
      const admin = await server.login("admin@demo.local");
      const ticket = await demoTicket(server, "5511955553801");
      const refused = await attempts(server, admin, ticket.id, internal.url);
      assert.equal(internal.hits(), 0, "the internal service was never called");
      assert.deepEqual(refused, UNREACHABLE);
      // Other private and metadata addresses, and IPv6 loopback, are refused the same way.
      for (const base of ["http://169.254.169.254", "http://10.0.0.1:5678", "http://[::1]:8377", "http://[::ffff:127.0.0.1]:8377"]) {
        const r = await askN8n(server.deps, { companyId: server.demo!.companyId, ticketId: ticket.id, url: `${base}/webhook/x`, text: "oi" });
        assert.deepEqual(r, { ok: false, error: "n8n is unreachable" }, base);
      }
    });
  } finally {
    await internal.close();
  }
});

Deno.test("a connection's webhook on loopback is refused: the delivery fails without reaching it, read like a closed port", async () => {
  const internal = internalService();
  try {
    await withServer(async (server) => {
      const admin = await server.login("admin@demo.local");
      const demo = await demoConnection(admin);
      const full = (await admin.get(`/whatsapp/${demo.id}`)).body;
      assert.equal((await admin.put(`/whatsapp/${demo.id}`, { ...full, webhook: `${internal.url}/hook` })).status, 200);
      await admin.post(`/simulator/${demo.id}/inbound`, { from: "5511955553802", name: "Rede", body: "olá" });
      const tried = await eventually(async () => {
        const log = await deliveryLog(server.deps.system, server.demo!.companyId, `w${demo.id}`);
        return log.deliveries.find((d) => d.attempts > 0);
      }, 10_000, "a delivery tried");
      assert.equal(tried.statusCode, null);
      assert.equal(tried.error, `Could not connect to 127.0.0.1:${internal.port}`);
      assert.equal(internal.hits(), 0);
    }, { webhookRetry: { baseMs: 60_000, maxMs: 60_000 } });
  } finally {
    await internal.close();
  }
});

Deno.test("BALCAO_INTEGRATION_ALLOW_PRIVATE lets the operator's named hosts through; no body is echoed, and a closed port reads as a refused address", async () => {
  const internal = internalService();
  const elsewhere = internalService();
  const closed = closedPort();
  try {
    await withServer(async (server) => {
      const admin = await server.login("admin@demo.local");
      // A port where nothing listens, really tried (its host is let through): word for word
      // what a refused address answers, so the texts map nothing.
      const ticket = await demoTicket(server, "5511955553804");
      assert.deepEqual(await attempts(server, admin, ticket.id, `http://127.0.0.1:${closed}`), UNREACHABLE);

      await setting(admin, "urlN8N", internal.url);
      await setting(admin, "apiKeyN8N", "n8n-key");
      const r = await admin.get("/n8n/listworkFlow");
      assert.deepEqual([r.status, r.body], [502, { error: "ERR_INTEGRATION_FAILED", message: "n8n answered HTTP 404" }]);
      assert.equal(internal.hits(), 1, "the allowed host was called");
      // A service on another loopback port is still refused.
      const other = await askN8n(server.deps, {
        companyId: server.demo!.companyId,
        ticketId: (await demoTicket(server, "5511955553803")).id,
        url: `${elsewhere.url}/webhook/x`,
        text: "oi",
      });
      assert.deepEqual(other, { ok: false, error: "n8n is unreachable" });
      assert.equal(elsewhere.hits(), 0);
    }, { integrationAllowPrivate: [`127.0.0.1:${internal.port}`, `127.0.0.1:${closed}`] });
  } finally {
    await internal.close();
    await elsewhere.close();
  }
});
