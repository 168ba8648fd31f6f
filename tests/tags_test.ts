/** Tags and ticket tags over real HTTP: paging, kanban, permissions, ticket tagging, isolation. */
import assert from "node:assert/strict";
import { getTicket } from "../actors/tickets/mod.ts";
import { demoTicket } from "./helpers/fixtures.ts";
import { withServer } from "./helpers/server.ts";

Deno.test("POST /tags validates the name; GET /tags/ pages id descending with ticketsCount", async () => {
  await withServer(async (server) => {
    const agent = await server.login("agent@demo.local");
    const missing = await agent.post("/tags", {});
    assert.equal(missing.status, 400);
    assert.equal(missing.body.fields.name, "Obrigatório");
    const short = await agent.post("/tags", { name: "ab" });
    assert.equal(short.body.fields.name, "Mensagem muito curta");
    for (let i = 1; i <= 22; i++) {
      assert.equal((await agent.post("/tags", { name: `Etiqueta ${i}` })).status, 200);
    }
    const page = await agent.get("/tags/?pageNumber=1");
    assert.equal(page.status, 200);
    assert.equal(page.body.tags.length, 20);
    assert.equal(page.body.count, 25, "22 plus the demo's 3 tags");
    assert.equal(page.body.hasMore, true);
    assert.equal(page.body.tags[0].name, "Etiqueta 22");
    assert.equal(page.body.tags[0].ticketsCount, 0);
    const found = await agent.get("/tags?searchParam=etiqueta%201");
    assert.equal(found.body.count, 11);
    const list = await agent.get("/tags/list");
    assert.equal(list.body.length, 25);
  });
});

Deno.test("kanban tags and tag edits need tags:manage; GET /tags/kanban lists the lanes", async () => {
  await withServer(async (server) => {
    const agent = await server.login("agent@demo.local");
    const supervisor = await server.login("supervisor@demo.local");
    const refused = await agent.post("/tags", { name: "Lead quente", kanban: 1 });
    assert.equal(refused.status, 403);
    const lane2 = await supervisor.post("/tags", { name: "Proposta", kanban: 1, order: 2 });
    const lane1 = await supervisor.post("/tags", { name: "Contato", kanban: 1, order: 1 });
    const plain = await agent.post("/tags", { name: "Cliente VIP", color: "#ff0000" });
    assert.equal(plain.body.kanban, 0);
    const kanban = await agent.get("/tags/kanban");
    assert.deepEqual(
      kanban.body.lista.map((t: { name: string }) => t.name),
      ["Lead quente", "Contato", "Proposta"],
      "by order, then id (the demo's lane comes first)",
    );
    assert.equal(lane1.body.kanban, 1);
    assert.equal((await agent.get("/tags/list?kanban=1")).body.length, 3);

    assert.equal((await agent.put(`/tags/${plain.body.id}`, { name: "Outro" })).status, 403);
    assert.equal((await agent.delete(`/tags/${plain.body.id}`)).status, 403);
    const edited = await supervisor.put(`/tags/${plain.body.id}`, { name: "Cliente Ouro" });
    assert.equal(edited.body.name, "Cliente Ouro");
    assert.equal(edited.body.color, "#ff0000", "fields not sent are kept");
    assert.equal((await supervisor.put(`/tags/${plain.body.id}`, { name: "ab" })).status, 400);
    assert.equal((await agent.get(`/tags/${lane2.body.id}`)).body.name, "Proposta");
    assert.equal((await supervisor.delete(`/tags/${lane2.body.id}`)).status, 200);
    assert.equal((await agent.get(`/tags/${lane2.body.id}`)).status, 404);
  });
});

Deno.test("POST /tags/sync and /ticket-tags change a ticket's tags; deleting a tag untags tickets", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const companyId = server.demo!.companyId;
    const ticket = await demoTicket(server, "5511977776666");
    const vip = (await admin.post("/tags", { name: "Cliente VIP" })).body;
    const laneA = (await admin.post("/tags", { name: "Lane A", kanban: 1 })).body;
    const laneB = (await admin.post("/tags", { name: "Lane B", kanban: 1 })).body;

    const synced = await admin.post("/tags/sync", {
      ticketId: ticket.id,
      tags: [{ id: vip.id }, laneA.id],
    });
    assert.equal(synced.status, 200);
    assert.deepEqual(synced.body.tags, [vip.id, laneA.id]);
    const counted = await admin.get("/tags/");
    const vipRow = counted.body.tags.find((t: { id: number }) => t.id === vip.id);
    assert.equal(vipRow.ticketsCount, 1);

    // Kanban move: leave lane A, join lane B; the plain tag stays.
    assert.equal((await admin.delete(`/ticket-tags/${ticket.id}`)).status, 200);
    const moved = await admin.put(`/ticket-tags/${ticket.id}/${laneB.id}`);
    assert.deepEqual(moved.body.tags, [vip.id, laneB.id]);
    assert.deepEqual((await getTicket(server.deps.system, companyId, ticket.id))!.tagIds, [
      vip.id,
      laneB.id,
    ]);

    assert.equal((await admin.put(`/ticket-tags/${ticket.id}/9999`)).status, 404);
    assert.equal((await admin.put(`/ticket-tags/9999/${vip.id}`)).status, 404);
    assert.equal(
      (await admin.post("/tags/sync", { ticketId: ticket.id, tags: [9999] })).status,
      404,
    );

    await admin.delete(`/tags/${vip.id}`);
    assert.deepEqual((await getTicket(server.deps.system, companyId, ticket.id))!.tagIds, [
      laneB.id,
    ]);
  });
});

Deno.test("tags of another company answer 404 and stay out of its lists", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const outsider = await server.login("super@balcao.local");
    const tag = (await admin.post("/tags", { name: "Privada" })).body;
    assert.equal((await outsider.get(`/tags/${tag.id}`)).status, 404);
    assert.equal((await outsider.put(`/tags/${tag.id}`, { name: "Hack" })).status, 404);
    assert.equal((await outsider.delete(`/tags/${tag.id}`)).status, 404);
    assert.equal((await outsider.get("/tags/")).body.count, 0);
    const ticket = await demoTicket(server, "5511966665555");
    assert.equal(
      (await outsider.post("/tags/sync", { ticketId: ticket.id, tags: [] })).status,
      404,
    );
    assert.equal((await outsider.delete(`/ticket-tags/${ticket.id}`)).status, 404);
  });
});

Deno.test("a user cannot tag a ticket outside its queues", async () => {
  await withServer(async (server) => {
    const agent = await server.login("agent@demo.local");
    const sales = await demoTicket(server, "5511966664444", { queueId: server.demo!.queueIds[1] });
    const tag = (await agent.post("/tags", { name: "Minha tag" })).body;
    assert.equal(
      (await agent.post("/tags/sync", { ticketId: sales.id, tags: [tag.id] })).status,
      403,
    );
    assert.equal((await agent.put(`/ticket-tags/${sales.id}/${tag.id}`)).status, 403);
    assert.equal((await agent.delete(`/ticket-tags/${sales.id}`)).status, 403);
  });
});
