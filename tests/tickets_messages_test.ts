import assert from "node:assert/strict";
import { pageOfMessages, sendSystemMessage } from "../actors/messages/mod.ts";
import { type TestServer, withServer } from "./helpers/server.ts";
import { inboundTicket, makeUser, setSettings } from "./helpers/fixtures.ts";

async function bodies(server: TestServer, companyId: number, ticketId: number): Promise<string[]> {
  const page = await pageOfMessages(server.deps.system, companyId, ticketId, 1, 50);
  return page.messages.map((m) => m.body);
}

Deno.test("PUT /tickets/{id} accept sends the greeting when sendGreetingAccepted is on", async () => {
  await withServer(async (server) => {
    const companyId = server.demo!.companyId;
    const [support] = server.demo!.queueIds;
    const agent = await server.login("agent@demo.local");
    const quiet = await inboundTicket(server, companyId, { queueId: support });
    await agent.put(`/tickets/${quiet.id}`, { status: "open" });
    assert.deepEqual(await bodies(server, companyId, quiet.id), []);

    await setSettings(server, companyId, { sendGreetingAccepted: "enabled" });
    const t = await inboundTicket(server, companyId, { queueId: support });
    const r = await agent.put(`/tickets/${t.id}`, { status: "open" });
    assert.equal(r.status, 200);
    const sent = await bodies(server, companyId, t.id);
    assert.equal(sent.length, 1);
    assert.match(sent[0], /meu nome é \*Alice Atendente\*/);
  });
});

Deno.test("PUT /tickets/{id} resolve sends the user's farewell unless sendFarewellMessage is false", async () => {
  await withServer(async (server) => {
    const companyId = server.demo!.companyId;
    const [support] = server.demo!.queueIds;
    const { client } = await makeUser(server, companyId, {
      queueIds: [support],
      farewellMessage: "Obrigado pelo contato, {{name}}!",
    });
    const t = await inboundTicket(server, companyId, { queueId: support });
    await client.put(`/tickets/${t.id}`, { status: "open" });
    const closed = await client.put(`/tickets/${t.id}`, { status: "closed" });
    assert.equal(closed.status, 200);
    const sent = await bodies(server, companyId, t.id);
    assert.equal(sent.length, 1);
    assert.match(sent[0], /^Obrigado pelo contato, Cliente \d{4}!$/);

    const silent = await inboundTicket(server, companyId, { queueId: support });
    await client.put(`/tickets/${silent.id}`, { status: "open" });
    await client.put(`/tickets/${silent.id}`, { status: "closed", sendFarewellMessage: false });
    assert.deepEqual(await bodies(server, companyId, silent.id), []);
  });
});

Deno.test("GET /tickets?searchParam finds tickets by words of their messages", async () => {
  await withServer(async (server) => {
    const companyId = server.demo!.companyId;
    const [support, sales] = server.demo!.queueIds;
    const agent = await server.login("agent@demo.local");
    const admin = await server.login("admin@demo.local");
    const mine = await inboundTicket(server, companyId, { queueId: support });
    const theirs = await inboundTicket(server, companyId, { queueId: sales });
    await inboundTicket(server, companyId, { queueId: support });
    await sendSystemMessage(server.deps, companyId, mine.id, "Seu reembolso foi aprovado");
    await sendSystemMessage(server.deps, companyId, theirs.id, "Reembolso em análise");
    const forAgent = await agent.get("/tickets?searchParam=reembolso");
    assert.deepEqual(forAgent.body.tickets.map((t: { id: number }) => t.id), [mine.id]);
    const forAdmin = await admin.get("/tickets?searchParam=reembolso&showAll=true");
    assert.deepEqual(
      forAdmin.body.tickets.map((t: { id: number }) => t.id).sort(),
      [mine.id, theirs.id].sort(),
    );
  });
});
