/**
 * A queue whose typeChatbot is typebot, through the real server, the simulator and a fake
 * Typebot (tests/helpers/fake_typebot.ts): the flow starts when a customer's ticket enters the
 * queue, replies continue the same session (a numbered choice sent back as its text), the end
 * of the flow leaves the ticket pending for agents with a note, the session survives a
 * restart, and a failing Typebot (HTTP 500, bad JSON, timeout) gives the customer the fallback
 * text and the agents a note, never a stuck ticket.
 */
import assert from "node:assert/strict";
import { type Client, type TestServer, withServer } from "./helpers/server.ts";
import { demoConnection, eventually } from "./helpers/channels.ts";
import { fakeTypebot, TYPEBOT_ID, TYPEBOT_TOKEN } from "./helpers/fake_typebot.ts";
import { withTempDir } from "./helpers/temp.ts";
import { INTEGRATION_FALLBACK_TEXT } from "../domain/typebot.ts";

/** The fakes listen on loopback: let the integrations reach them (BALCAO_INTEGRATION_ALLOW_PRIVATE). */
const REACH_FAKES = { integrationAllowPrivate: true } as const;

type Fake = ReturnType<typeof fakeTypebot>;

let numberSeq = 0;
const freshNumber = () => `55119777${String(Date.now() % 100000).padStart(5, "0")}${numberSeq++}`;

async function ok(p: Promise<{ status: number; body: unknown }>) {
  const r = await p;
  assert.ok(r.status < 300, `HTTP ${r.status}: ${JSON.stringify(r.body)}`);
  // deno-lint-ignore no-explicit-any -- the JSON bodies of the API
  return r.body as any;
}

/** Points the company at the fake and makes the demo connection's only queue a Typebot queue. */
async function typebotQueue(admin: Client, fake: Fake): Promise<{ whatsappId: number; queueId: number }> {
  await ok(admin.put("/settings/urlTypebot", { value: fake.url }));
  await ok(admin.put("/settings/tokenTypebot", { value: TYPEBOT_TOKEN }));
  const queue = await ok(admin.post("/queue", {
    name: "Robô",
    color: "#0e7490",
    prioridade: 9,
    typeChatbot: "typebot",
    workspaceTypebot: "ws-1",
    typebotId: TYPEBOT_ID,
  }));
  const demo = await demoConnection(admin);
  const full = await ok(admin.get(`/whatsapp/${demo.id}`));
  await ok(admin.put(`/whatsapp/${demo.id}`, { ...full, queueIds: [queue.id] }));
  return { whatsappId: demo.id, queueId: queue.id };
}

async function writes(admin: Client, whatsappId: number, from: string, body: string) {
  await ok(admin.post(`/simulator/${whatsappId}/inbound`, { from, name: "Marta", body }));
}

/** The texts sent to `number` through the simulator, in order. */
async function sentTo(admin: Client, whatsappId: number, number: string): Promise<string[]> {
  const box = (await admin.get(`/simulator/${whatsappId}/outbox`)).body.messages as Array<{ to: string; body: string }>;
  return box.filter((m) => m.to === number).map((m) => m.body);
}

async function waitSent(admin: Client, whatsappId: number, number: string, match: RegExp | string): Promise<string[]> {
  return await eventually(async () => {
    const texts = await sentTo(admin, whatsappId, number);
    return texts.some((t) => (typeof match === "string" ? t === match : match.test(t))) ? texts : undefined;
  }, 10_000, `a message ${match} to ${number}`);
}

async function ticketOf(admin: Client, number: string) {
  return await eventually(async () => {
    const list = (await admin.get("/tickets?showAll=true&status=pending&limit=1000")).body.tickets as Array<
      { id: number; status: string; queueId: number | null; userId: number | null; contact?: { number: string } }
    >;
    return list.find((t) => t.contact?.number === number);
  }, 10_000, `ticket of ${number}`);
}

async function notes(admin: Client, ticketId: number): Promise<Array<{ action: string; detail: string | null }>> {
  return (await admin.get(`/tickets/${ticketId}/tracking`)).body.tracking;
}

async function withFake(fn: (fake: Fake) => Promise<void>) {
  const fake = fakeTypebot();
  try {
    await fn(fake);
  } finally {
    await fake.server.shutdown();
  }
}

Deno.test("Typebot queue: a new ticket starts the flow, replies continue it, and its end leaves the ticket pending for agents", async () => {
  await withFake(async (fake) => {
    await withServer(async (server) => {
      const admin = await server.login("admin@demo.local");
      const { whatsappId, queueId } = await typebotQueue(admin, fake);
      const number = freshNumber();

      await writes(admin, whatsappId, number, "oi");
      const first = await waitSent(admin, whatsappId, number, /\*1\* - Vendas\n\*2\* - Suporte/);
      assert.deepEqual(first, ["Olá *Marta*! Sou o assistente virtual.", "*1* - Vendas\n*2* - Suporte"]);
      const start = fake.chatCalls()[0];
      assert.equal(start.path, "/api/v1/typebots/triagem-abc/startChat", "the public id read from the builder");
      assert.equal(start.body.prefilledVariables.number, number);
      assert.equal(start.body.textBubbleContentFormat, "markdown");

      await writes(admin, whatsappId, number, "2");
      await waitSent(admin, whatsappId, number, "Você escolheu Suporte. Qual é o seu pedido?");
      const cont = fake.chatCalls()[1];
      assert.equal(cont.path, "/api/v1/sessions/sess-1/continueChat");
      assert.equal(cont.body.message, "Suporte", "the number is sent as the choice's text");

      await writes(admin, whatsappId, number, "Pedido 77 atrasado");
      await waitSent(admin, whatsappId, number, "Obrigado! Um atendente vai continuar daqui.");
      assert.equal(fake.chatCalls()[2].body.message, "Pedido 77 atrasado");
      const ticket = await ticketOf(admin, number);
      assert.equal(ticket.status, "pending");
      assert.equal(ticket.queueId, queueId);
      assert.equal(ticket.userId, null);
      await eventually(async () => (await notes(admin, ticket.id)).find((n) => n.action === "botFinished" && n.detail === "Typebot"), 10_000, "botFinished note");

      // The flow is over: what the customer writes now waits for an agent, not for Typebot.
      await writes(admin, whatsappId, number, "alô?");
      await eventually(async () => {
        const page = (await admin.get(`/messages/${ticket.id}`)).body;
        return page.messages.some((m: { body: string }) => m.body === "alô?") ? true : undefined;
      }, 10_000, "the late reply stored");
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(fake.chatCalls().length, 3);
    }, REACH_FAKES);
  });
});

Deno.test("Typebot queue: an agent who accepts the ticket takes over from the bot", async () => {
  await withFake(async (fake) => {
    await withServer(async (server) => {
      const admin = await server.login("admin@demo.local");
      const { whatsappId } = await typebotQueue(admin, fake);
      const number = freshNumber();
      await writes(admin, whatsappId, number, "oi");
      await waitSent(admin, whatsappId, number, /\*2\* - Suporte/);
      const ticket = await ticketOf(admin, number);
      await ok(admin.put(`/tickets/${ticket.id}`, { status: "open", userId: server.demo!.logins[1].id }));

      await writes(admin, whatsappId, number, "1");
      await eventually(async () => {
        const page = (await admin.get(`/messages/${ticket.id}`)).body;
        return page.messages.some((m: { body: string; fromMe: boolean }) => m.body === "1" && !m.fromMe) ? true : undefined;
      }, 10_000, "the reply stored");
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(fake.chatCalls().length, 1, "no continueChat once an agent holds the ticket");
    }, REACH_FAKES);
  });
});

Deno.test("Typebot queue: the session survives a restart of the server", async () => {
  await withFake(async (fake) => {
    await withTempDir("balcao_typebot_", async (dir) => {
      const kvPath = `${dir}/store.kv`;
      const number = freshNumber();
      let whatsappId = 0;
      await withServer(async (server) => {
        const admin = await server.login("admin@demo.local");
        ({ whatsappId } = await typebotQueue(admin, fake));
        await writes(admin, whatsappId, number, "oi");
        await waitSent(admin, whatsappId, number, /\*2\* - Suporte/);
      }, { ...REACH_FAKES, kvPath });
      await withServer(async (server: TestServer) => {
        const admin = await server.login("admin@demo.local");
        await writes(admin, whatsappId, number, "1");
        await waitSent(admin, whatsappId, number, "Você escolheu Vendas. Qual é o seu pedido?");
        const calls = fake.chatCalls();
        assert.equal(calls.length, 2);
        assert.equal(calls[1].path, "/api/v1/sessions/sess-1/continueChat", "the same session, not a new start");
      }, { ...REACH_FAKES, kvPath, demo: "auto" });
    });
  });
});

for (const mode of ["error500", "badJson", "slow"] as const) {
  Deno.test(`Typebot queue: a failing Typebot (${mode}) gives the customer the fallback and the agents a note; the ticket waits in its queue`, async () => {
    await withFake(async (fake) => {
      await withServer(async (server) => {
        fake.state.mode = mode;
        fake.state.slowMs = 2000;
        const admin = await server.login("admin@demo.local");
        const { whatsappId, queueId } = await typebotQueue(admin, fake);
        const number = freshNumber();
        await writes(admin, whatsappId, number, "oi");
        await waitSent(admin, whatsappId, number, INTEGRATION_FALLBACK_TEXT);
        const ticket = await ticketOf(admin, number);
        assert.equal(ticket.status, "pending");
        assert.equal(ticket.queueId, queueId);
        const note = await eventually(async () => (await notes(admin, ticket.id)).find((n) => n.action === "integrationFailed"), 10_000, "integrationFailed note");
        const reason = { error500: /HTTP 500/, badJson: /invalid JSON/, slow: /did not answer within 400 ms/ }[mode];
        assert.match(note.detail ?? "", /^Typebot \(/);
        assert.match(note.detail ?? "", reason);

        // The bot is off for this ticket: the next message goes to agents, no second fallback.
        fake.state.mode = "ok";
        await writes(admin, whatsappId, number, "ainda aí?");
        await new Promise((r) => setTimeout(r, 400));
        assert.equal(fake.chatCalls().length, 1);
        assert.equal((await sentTo(admin, whatsappId, number)).filter((t) => t === INTEGRATION_FALLBACK_TEXT).length, 1);
      }, { ...REACH_FAKES, integrationTimeoutMs: 400 });
    });
  });
}
