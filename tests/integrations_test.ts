/**
 * The bot integrations' other faces, through the real server against local fakes: the lists
 * the queue editor offers (GET /typebot/listworkspaces, /typebot/listtypebots,
 * /n8n/listworkFlow: who may read them, missing settings, a failing service), `askN8n` (the
 * posted conversation and every failure as a value), and a queue whose typeChatbot is n8n
 * answering a customer through the simulator.
 */
import assert from "node:assert/strict";
import { type Client, withServer } from "./helpers/server.ts";
import { demoConnection, eventually } from "./helpers/channels.ts";
import { fakeN8n, N8N_API_KEY } from "./helpers/fake_n8n.ts";
import { fakeTypebot, TYPEBOT_ID, TYPEBOT_TOKEN } from "./helpers/fake_typebot.ts";
import { askN8n } from "../server/integrations/n8n.ts";
import { INTEGRATION_FALLBACK_TEXT } from "../domain/typebot.ts";

/** The fakes listen on loopback: let the integrations reach them (BALCAO_INTEGRATION_ALLOW_PRIVATE). */
const REACH_FAKES = { integrationAllowPrivate: true } as const;

async function ok(p: Promise<{ status: number; body: unknown }>) {
  const r = await p;
  assert.ok(r.status < 300, `HTTP ${r.status}: ${JSON.stringify(r.body)}`);
  // deno-lint-ignore no-explicit-any -- the JSON bodies of the API
  return r.body as any;
}

async function sentTo(admin: Client, whatsappId: number, number: string): Promise<string[]> {
  const box = (await admin.get(`/simulator/${whatsappId}/outbox`)).body.messages as Array<{ to: string; body: string }>;
  return box.filter((m) => m.to === number).map((m) => m.body);
}

Deno.test("GET /typebot/listworkspaces and /typebot/listtypebots read the company's Typebot with its token; errors name what is missing or failing", async () => {
  const fake = fakeTypebot();
  try {
    await withServer(async (server) => {
      const admin = await server.login("admin@demo.local");
      const agent = await server.login("agent@demo.local");

      const missing = await admin.get("/typebot/listworkspaces");
      assert.equal(missing.status, 400);
      assert.equal(missing.body.error, "ERR_INTEGRATION_NOT_CONFIGURED");
      assert.match(missing.body.message, /urlTypebot/);

      await ok(admin.put("/settings/urlTypebot", { value: `${fake.url}/` }));
      const noToken = await admin.get("/typebot/listworkspaces");
      assert.equal(noToken.body.error, "ERR_INTEGRATION_NOT_CONFIGURED");
      assert.match(noToken.body.message, /tokenTypebot/);

      await ok(admin.put("/settings/tokenTypebot", { value: TYPEBOT_TOKEN }));
      assert.deepEqual(await ok(admin.get("/typebot/listworkspaces")), { workspaces: [{ id: "ws-1", name: "Atendimento" }] });
      assert.deepEqual(await ok(admin.get("/typebot/listtypebots?workspaceId=ws-1")), {
        typebots: [
          { id: TYPEBOT_ID, name: "Triagem", published: true },
          { id: "clx-rascunho", name: "Rascunho", published: false },
        ],
      });
      assert.equal((await admin.get("/typebot/listtypebots")).status, 400, "workspaceId is required");

      const unknown = await admin.get("/typebot/listtypebots?workspaceId=nope");
      assert.equal(unknown.status, 502);
      assert.equal(unknown.body.error, "ERR_INTEGRATION_FAILED");
      assert.match(unknown.body.message, /Typebot answered HTTP 404/);

      await ok(admin.put("/settings/tokenTypebot", { value: "revoked" }));
      const refused = await admin.get("/typebot/listworkspaces");
      assert.equal(refused.status, 502);
      assert.match(refused.body.message, /HTTP 401/);

      assert.equal((await agent.get("/typebot/listworkspaces")).status, 403);
      assert.equal((await server.client().get("/typebot/listworkspaces")).status, 401);
    }, REACH_FAKES);
  } finally {
    await fake.server.shutdown();
  }
});

Deno.test("GET /n8n/listworkFlow lists every page of the company's n8n workflows with their webhook URLs", async () => {
  const fake = fakeN8n();
  try {
    await withServer(async (server) => {
      const admin = await server.login("admin@demo.local");
      const missing = await admin.get("/n8n/listworkFlow");
      assert.equal(missing.status, 400);
      assert.equal(missing.body.error, "ERR_INTEGRATION_NOT_CONFIGURED");

      // urlN8N may hold a webhook of the instance: its base is used for the API.
      await ok(admin.put("/settings/urlN8N", { value: `${fake.url}/webhook/atendimento` }));
      await ok(admin.put("/settings/apiKeyN8N", { value: N8N_API_KEY }));
      assert.deepEqual(await ok(admin.get("/n8n/listworkFlow")), {
        workflows: [
          { id: "1", name: "Atendimento IA", active: true, webhooks: [`${fake.url}/webhook/atendimento`] },
          { id: "2", name: "Rascunho", active: false, webhooks: [] },
          { id: "3", name: "Pedidos", active: true, webhooks: [`${fake.url}/webhook/pedidos`] },
        ],
      });

      await ok(admin.put("/settings/apiKeyN8N", { value: "wrong" }));
      const refused = await admin.get("/n8n/listworkFlow");
      assert.equal(refused.status, 502);
      assert.equal(refused.body.error, "ERR_INTEGRATION_FAILED");
      assert.match(refused.body.message, /n8n answered HTTP 401/);
    }, REACH_FAKES);
  } finally {
    await fake.server.shutdown();
  }
});

Deno.test("askN8n() posts the ticket, contact, last messages and text, reads the reply, and returns failures as values", async () => {
  const fake = fakeN8n();
  try {
    await withServer(async (server) => {
      const admin = await server.login("admin@demo.local");
      const demo = await demoConnection(admin);
      const companyId = server.demo!.companyId;
      const number = "5511955550101";
      await ok(admin.post(`/simulator/${demo.id}/inbound`, { from: number, name: "Caio", body: "quero um orçamento" }));
      const ticketId = await eventually(async () => {
        const list = (await admin.get("/tickets?showAll=true&limit=1000")).body.tickets as Array<{ id: number; contact?: { number: string } }>;
        return list.find((t) => t.contact?.number === number)?.id;
      });

      const none = await askN8n(server.deps, { companyId, ticketId, text: "x" });
      assert.deepEqual(none, { ok: false, error: "n8n URL is not configured" });

      await ok(admin.put("/settings/urlN8N", { value: `${fake.url}/webhook/atendimento` }));
      const answer = await askN8n(server.deps, { companyId, ticketId, text: "quero um orçamento" });
      assert.deepEqual(answer, { ok: true, text: "n8n (atendimento) recebeu: quero um orçamento" });
      const posted = fake.calls.at(-1)!.body;
      assert.equal(posted.event, "message");
      assert.equal(posted.ticket.id, ticketId);
      assert.equal(posted.contact.number, number);
      assert.equal(posted.contact.name, "Caio");
      assert.ok(posted.messages.some((m: { body: string; fromMe: boolean }) => m.body === "quero um orçamento" && !m.fromMe));

      const other = await askN8n(server.deps, { companyId, ticketId, url: `${fake.url}/webhook/pedidos`, text: "oi" });
      assert.deepEqual(other, { ok: true, text: "n8n (pedidos) recebeu: oi" }, "an option's own URL wins over urlN8N");

      fake.state.mode = "error500";
      const failed = await askN8n(server.deps, { companyId, ticketId, text: "oi" });
      assert.equal(failed.ok, false);
      assert.match((failed as { error: string }).error, /n8n answered HTTP 500/);
      fake.state.mode = "badJson";
      assert.match((await askN8n(server.deps, { companyId, ticketId, text: "oi" }) as { error: string }).error, /invalid JSON/);
      fake.state.mode = "slow";
      fake.state.slowMs = 1000;
      assert.match((await askN8n(server.deps, { companyId, ticketId, text: "oi" }) as { error: string }).error, /did not answer within 300 ms/);
      fake.state.mode = "ok";
      const gone = await askN8n(server.deps, { companyId, ticketId, url: "http://127.0.0.1:9/webhook/x", text: "oi" });
      assert.match((gone as { error: string }).error, /n8n is unreachable/);
      assert.deepEqual(await askN8n(server.deps, { companyId, ticketId: 999999, text: "oi" }), { ok: false, error: "Ticket 999999 does not exist" });
    }, { ...REACH_FAKES, integrationTimeoutMs: 300 });
  } finally {
    await fake.server.shutdown();
  }
});

Deno.test("n8n queue: each customer message is answered by the queue's workflow; a failure gives the fallback and a note, then agents take over", async () => {
  const fake = fakeN8n();
  try {
    await withServer(async (server) => {
      const admin = await server.login("admin@demo.local");
      const queue = await ok(admin.post("/queue", {
        name: "IA",
        color: "#7c3aed",
        prioridade: 9,
        typeChatbot: "n8n",
        n8n: `${fake.url}/webhook/atendimento`,
        n8nId: "1",
      }));
      const demo = await demoConnection(admin);
      const full = await ok(admin.get(`/whatsapp/${demo.id}`));
      await ok(admin.put(`/whatsapp/${demo.id}`, { ...full, queueIds: [queue.id] }));
      const number = "5511955550202";

      await ok(admin.post(`/simulator/${demo.id}/inbound`, { from: number, name: "Lia", body: "oi" }));
      await eventually(async () => (await sentTo(admin, demo.id, number)).includes("n8n (atendimento) recebeu: oi") || undefined);
      await ok(admin.post(`/simulator/${demo.id}/inbound`, { from: number, name: "Lia", body: "tem desconto?" }));
      await eventually(async () => (await sentTo(admin, demo.id, number)).includes("n8n (atendimento) recebeu: tem desconto?") || undefined);

      fake.state.mode = "error500";
      await ok(admin.post(`/simulator/${demo.id}/inbound`, { from: number, name: "Lia", body: "e agora?" }));
      await eventually(async () => (await sentTo(admin, demo.id, number)).includes(INTEGRATION_FALLBACK_TEXT) || undefined);
      const ticket = (await admin.get("/tickets?showAll=true&limit=1000")).body.tickets
        .find((t: { contact?: { number: string } }) => t.contact?.number === number);
      assert.equal(ticket.status, "pending");
      assert.equal(ticket.queueId, queue.id);
      const tracking = (await admin.get(`/tickets/${ticket.id}/tracking`)).body.tracking as Array<{ action: string; detail: string }>;
      assert.ok(tracking.some((n) => n.action === "integrationFailed" && /^n8n \(n8n answered HTTP 500/.test(n.detail)));

      fake.state.mode = "ok";
      const before = fake.calls.length;
      await ok(admin.post(`/simulator/${demo.id}/inbound`, { from: number, name: "Lia", body: "alguém?" }));
      await new Promise((r) => setTimeout(r, 400));
      assert.equal(fake.calls.length, before, "the bot stays off for this ticket after its failure");
    }, REACH_FAKES);
  } finally {
    await fake.server.shutdown();
  }
});
