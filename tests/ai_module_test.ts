/**
 * HTTP tests of the AI module (spec 002 §2.17, §5, §7, §8) and its reply assistant (#20)
 * against a real server and a fake chat-completions endpoint on loopback: the settings'
 * create/update rules and texts, the write-only key, who reads and writes, the plan flag, tenant
 * isolation, and a suggestion built from the last 20 messages, its failures (500, no text,
 * timeout) leaving the conversation as it was; and a queue whose typeChatbot is "ai" answered
 * by the model, marked as such, falling back to agents when it fails.
 */
import assert from "node:assert/strict";
import { AI_REPLY_LABEL } from "../domain/ai_prompt.ts";
import { SECRET_MASK } from "../domain/settings.ts";
import { INTEGRATION_FALLBACK_TEXT } from "../domain/typebot.ts";
import { demoConnection, eventually } from "./helpers/channels.ts";
import { demoTicket, makeUser } from "./helpers/fixtures.ts";
import { fakeOpenAi } from "./helpers/fake_openai.ts";
import { inboundText, receive } from "./helpers/messages.ts";
import { type Client, type TestServer, withServer } from "./helpers/server.ts";
import { createTenant } from "./helpers/tenants.ts";

/** The fakes listen on loopback: let the integrations reach them (BALCAO_INTEGRATION_ALLOW_PRIVATE). */
const REACH_FAKES = { integrationAllowPrivate: true } as const;

/** Stores the assistant's settings for the demo company through the API. */
async function configure(admin: Client, endpoint: string, extra: Record<string, string> = {}) {
  const values = {
    "form-endpoint": endpoint,
    "model": "gpt-4o-mini",
    "system-message": "Você é um atendente cordial da Loja Demo.",
    "data-description": "Horário: 8h às 18h. Frete grátis acima de R$ 200.",
    ...extra,
  };
  for (const [key, value] of Object.entries(values)) {
    const r = await admin.post("/ai-module", { key, value });
    assert.equal(r.status, 201, `${key}: ${JSON.stringify(r.body)}`);
  }
}

/** A demo ticket opened by `number` with `count` customer messages and, every third, a reply from the phone. */
async function conversation(server: TestServer, number: string, count: number) {
  const ticket = await demoTicket(server, number, { name: `Cliente ${number.slice(-4)}` });
  for (let i = 1; i <= count; i++) {
    await receive(server, inboundText(number, `Mensagem ${i}`, i % 3 === 0 ? { fromMe: true, body: `*Admin:*\nResposta ${i}` } : {}));
  }
  return ticket;
}

Deno.test("AI module settings: POST creates a key once, PUT changes a stored one, values checked with the spec's texts, the key write-only", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    assert.deepEqual((await admin.get("/ai-module/")).body, []);

    const badUrl = await admin.post("/ai-module", { key: "form-endpoint", value: "not a url" });
    assert.equal(badUrl.status, 400);
    assert.equal(badUrl.body.fields.value, "Informe uma URL válida");
    const ftp = await admin.post("/ai-module", { key: "form-endpoint", value: "ftp://example.com/x" });
    assert.equal(ftp.body.fields.value, "Informe uma URL válida");
    const blank = await admin.post("/ai-module", { key: "system-message", value: "   " });
    assert.equal(blank.status, 400);
    assert.equal(blank.body.fields.value, "Informe as instruções do sistema");
    const noData = await admin.post("/ai-module", { key: "data-description", value: "" });
    assert.equal(noData.body.fields.value, "Informe a descrição dos dados");
    assert.equal((await admin.post("/ai-module", { key: "temperature", value: "1" })).status, 400);

    const created = await admin.post("/ai-module", { key: "form-endpoint", value: " https://llm.example.com/v1/chat/completions " });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body.value, "https://llm.example.com/v1/chat/completions", "trimmed");
    const again = await admin.post("/ai-module", { key: "form-endpoint", value: "https://other.example.com/" });
    assert.equal(again.status, 409);
    assert.equal(again.body.error, "ERR_CONFLICT");
    const missing = await admin.put("/ai-module", { key: "system-message", value: "Seja breve." });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error, "ERR_NO_SETTING_FOUND");
    const updated = await admin.put("/ai-module", { key: "form-endpoint", value: "https://other.example.com/v1/chat/completions" });
    assert.equal(updated.status, 200);
    assert.equal(updated.body.value, "https://other.example.com/v1/chat/completions");

    // The API key is write-only: every answer masks it, and the mask itself is refused.
    const key = await admin.post("/ai-module", { key: "api-key", value: "sk-secret-123" });
    assert.equal(key.body.value, SECRET_MASK);
    assert.equal((await admin.put("/ai-module", { key: "api-key", value: SECRET_MASK })).status, 400);
    const list = (await admin.get("/ai-module")).body as Array<{ key: string; value: string }>;
    assert.deepEqual(list.map((s) => [s.key, s.value]), [
      ["form-endpoint", "https://other.example.com/v1/chat/completions"],
      ["api-key", SECRET_MASK],
    ]);
    assert.ok(!JSON.stringify(list).includes("sk-secret-123"));
    const cleared = await admin.put("/ai-module", { key: "api-key", value: "" });
    assert.equal(cleared.body.value, "");
  }, REACH_FAKES);
});

Deno.test("AI module: every user reads, only admins write, the plan flag useAI closes it all, and companies never see each other's settings", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    await configure(admin, "https://llm.example.com/v1/chat/completions", { "api-key": "sk-demo" });
    const agent = await server.login("agent@demo.local");
    const supervisor = await server.login("supervisor@demo.local");

    const read = await agent.get("/ai-module/");
    assert.equal(read.status, 200);
    assert.equal(read.body.find((s: { key: string }) => s.key === "api-key").value, SECRET_MASK);
    for (const who of [agent, supervisor]) {
      assert.equal((await who.post("/ai-module", { key: "model", value: "x" })).status, 403);
      assert.equal((await who.put("/ai-module", { key: "model", value: "x" })).status, 403);
    }
    assert.equal((await server.client().get("/ai-module/")).status, 401);

    // Another company: its own (empty) settings; its writes never touch ours.
    const other = await createTenant(server, "Outra IA");
    assert.deepEqual((await other.admin.get("/ai-module/")).body, []);
    assert.equal((await other.admin.put("/ai-module", { key: "model", value: "llama3" })).status, 404, "our model is not its");
    assert.equal((await other.admin.post("/ai-module", { key: "model", value: "llama3" })).status, 201);
    const ours = (await admin.get("/ai-module/")).body.find((s: { key: string }) => s.key === "model");
    assert.equal(ours.value, "gpt-4o-mini");

    // The plan flag off: 403 with the upgrade text on every route, for every profile.
    const owner = await server.login("super@balcao.local");
    assert.equal((await owner.put(`/plans/${server.demo!.planId}`, { useAI: false })).status, 200);
    const ticket = await conversation(server, "5511955550001", 1);
    for (const [method, path] of [["GET", "/ai-module/"], ["POST", "/ai-module"], ["PUT", "/ai-module"], ["POST", `/ai-module/suggest/${ticket.id}`]]) {
      const r = await admin.request(method, path, method === "GET" ? undefined : { key: "model", value: "x" });
      assert.equal(r.status, 403, `${method} ${path}`);
      assert.equal(r.body.error, "ERR_PLAN_FEATURE");
    }
  }, REACH_FAKES);
});

Deno.test("POST /ai-module/suggest/{ticketId} posts the instructions, the data description and the last 20 messages, and returns the answer without sending it", async () => {
  const fake = fakeOpenAi();
  try {
    await withServer(async (server) => {
      const admin = await server.login("admin@demo.local");
      const ticket = await conversation(server, "5511955550002", 25);
      assert.equal((await admin.put(`/tickets/${ticket.id}`, { status: "open", userId: server.demo!.logins.find((l) => l.email === "admin@demo.local")!.id })).status, 200);

      const early = await admin.post(`/ai-module/suggest/${ticket.id}`);
      assert.equal(early.status, 400, "not configured yet");
      assert.equal(early.body.error, "ERR_INTEGRATION_NOT_CONFIGURED");
      assert.equal(fake.calls.length, 0);

      await configure(admin, fake.url, { "api-key": "sk-test-42" });
      const before = (await admin.get(`/messages/${ticket.id}`)).body.count;
      const r = await admin.post(`/ai-module/suggest/${ticket.id}`);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.equal(r.body.suggestion, 'Olá! Sobre "Mensagem 25", posso ajudar.');

      assert.equal(fake.calls.length, 1);
      const { authorization, body } = fake.calls[0];
      assert.equal(authorization, "Bearer sk-test-42");
      assert.equal(body.model, "gpt-4o-mini");
      assert.deepEqual(body.messages[0], {
        role: "system",
        content: "Você é um atendente cordial da Loja Demo.\n\nHorário: 8h às 18h. Frete grátis acima de R$ 200.",
      });
      const history = body.messages.slice(1) as Array<{ role: string; content: string }>;
      assert.equal(history.length, 20, "the last 20 messages");
      assert.deepEqual(history[0], { role: "assistant", content: "Resposta 6" }, "messages 6 to 25");
      assert.deepEqual(history[1], { role: "user", content: "Mensagem 7" });
      assert.deepEqual(history.at(-2), { role: "assistant", content: "Resposta 24" }, "the phone's reply, its signature dropped");
      assert.deepEqual(history.at(-1), { role: "user", content: "Mensagem 25" });

      // Nothing was sent or stored: the conversation is as it was.
      assert.equal((await admin.get(`/messages/${ticket.id}`)).body.count, before);
    }, REACH_FAKES);
  } finally {
    await fake.server.shutdown();
  }
});

Deno.test("POST /ai-module/suggest/{ticketId} answers 502 for a failing endpoint or one without text, 504 on timeout, and follows the messages API's visibility", async () => {
  const fake = fakeOpenAi();
  try {
    await withServer(async (server) => {
      const admin = await server.login("admin@demo.local");
      await configure(admin, fake.url);
      const ticket = await conversation(server, "5511955550003", 2);
      const count = async () => (await admin.get(`/messages/${ticket.id}`)).body.count;
      const before = await count();

      fake.state.mode = "error500";
      const failed = await admin.post(`/ai-module/suggest/${ticket.id}`);
      assert.equal(failed.status, 502);
      assert.equal(failed.body.error, "ERR_INTEGRATION_FAILED");
      assert.match(failed.body.message, /HTTP 500/);
      fake.state.mode = "noChoices";
      const empty = await admin.post(`/ai-module/suggest/${ticket.id}`);
      assert.equal(empty.status, 502);
      assert.match(empty.body.message, /without a text/);
      fake.state.mode = "slow";
      fake.state.slowMs = 1500;
      const slow = await admin.post(`/ai-module/suggest/${ticket.id}`);
      assert.equal(slow.status, 504);
      assert.equal(slow.body.error, "ERR_INTEGRATION_FAILED");
      assert.equal(await count(), before, "the conversation is untouched");
      assert.equal(fake.calls[0].authorization, null, "no key configured: no Authorization header");

      // Who may ask: the messages API's rule.
      fake.state.mode = "ok";
      const outsider = await makeUser(server, server.demo!.companyId, { queueIds: [] });
      assert.equal((await outsider.client.post(`/ai-module/suggest/${ticket.id}`)).status, 403);
      assert.equal((await admin.post("/ai-module/suggest/999999")).status, 404);
      assert.equal((await admin.post("/ai-module/suggest/abc")).status, 404);
      const other = await createTenant(server, "Outra Sugestão");
      await configure(other.admin, fake.url);
      const calls = fake.calls.length;
      const foreign = await other.admin.post(`/ai-module/suggest/${ticket.id}`);
      assert.equal(foreign.status, 404, "another company's ticket does not exist for it");
      assert.equal(fake.calls.length, calls, "and nothing of it went to the model");
    }, { ...REACH_FAKES, integrationTimeoutMs: 300 });
  } finally {
    await fake.server.shutdown();
  }
});

Deno.test("AI queue: the AI module answers the queue's customers, marked as the AI's; a failure gives the fallback and a note, then agents take over", async () => {
  const fake = fakeOpenAi();
  try {
    await withServer(async (server) => {
      const admin = await server.login("admin@demo.local");
      await configure(admin, fake.url);
      const queue = await admin.post("/queue", { name: "Robô", color: "#0ea5e9", prioridade: 9, typeChatbot: "ai" });
      assert.equal(queue.status, 200, JSON.stringify(queue.body));
      const demo = await demoConnection(admin);
      const full = (await admin.get(`/whatsapp/${demo.id}`)).body;
      assert.equal((await admin.put(`/whatsapp/${demo.id}`, { ...full, queueIds: [queue.body.id] })).status, 200);
      const number = "5511955550301";
      const sent = async () =>
        ((await admin.get(`/simulator/${demo.id}/outbox`)).body.messages as Array<{ to: string; body: string }>)
          .filter((m) => m.to === number).map((m) => m.body);

      await admin.post(`/simulator/${demo.id}/inbound`, { from: number, name: "Rui", body: "oi" });
      await eventually(async () => (await sent()).includes(`${AI_REPLY_LABEL}\nOlá! Sobre "oi", posso ajudar.`) || undefined, 10_000, "the AI's answer");
      await admin.post(`/simulator/${demo.id}/inbound`, { from: number, name: "Rui", body: "qual o prazo?" });
      await eventually(async () => (await sent()).includes(`${AI_REPLY_LABEL}\nOlá! Sobre "qual o prazo?", posso ajudar.`) || undefined, 10_000, "the second answer");
      // The model read its own earlier answer without the label, and the customer's new message last.
      const history = fake.calls.at(-1)!.body.messages as Array<{ role: string; content: string }>;
      assert.ok(history.some((m) => m.role === "assistant" && m.content === 'Olá! Sobre "oi", posso ajudar.'), JSON.stringify(history));
      assert.deepEqual(history.at(-1), { role: "user", content: "qual o prazo?" });

      fake.state.mode = "error500";
      await admin.post(`/simulator/${demo.id}/inbound`, { from: number, name: "Rui", body: "e o frete?" });
      await eventually(async () => (await sent()).includes(INTEGRATION_FALLBACK_TEXT) || undefined, 10_000, "the fallback");
      const ticket = (await admin.get("/tickets?showAll=true&limit=1000")).body.tickets
        .find((t: { contact?: { number: string } }) => t.contact?.number === number);
      assert.equal(ticket.status, "pending");
      const tracking = (await admin.get(`/tickets/${ticket.id}/tracking`)).body.tracking as Array<{ action: string; detail: string }>;
      assert.ok(tracking.some((n) => n.action === "integrationFailed" && /^IA \(The AI endpoint answered HTTP 500/.test(n.detail)), JSON.stringify(tracking));
      fake.state.mode = "ok";
      const calls = fake.calls.length;
      await admin.post(`/simulator/${demo.id}/inbound`, { from: number, name: "Rui", body: "alguém?" });
      await new Promise((r) => setTimeout(r, 400));
      assert.equal(fake.calls.length, calls, "the bot stays off for this ticket after its failure");
    }, REACH_FAKES);
  } finally {
    await fake.server.shutdown();
  }
});
