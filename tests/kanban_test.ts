/**
 * The kanban board's API over real HTTP and WebSocket (spec 002 §2.10, §6, §7): lanes by
 * `order`, cards with extra info, the filters, who sees which card, the plan flag useKanban,
 * tenant isolation, and a move publishing the ticket's new tags to another user's socket.
 */
import assert from "node:assert/strict";
import { UPGRADE_TEXT } from "../domain/external_message.ts";
import { demoTicket, makeUser } from "./helpers/fixtures.ts";
import { type Client, withServer } from "./helpers/server.ts";
import { createTenant } from "./helpers/tenants.ts";
import { SocketPool } from "./helpers/ws.ts";

interface Card {
  id: number;
  status: string;
  userId: number | null;
  contact: { name: string; number: string; extraInfo: Array<{ name: string; value: string }> };
  tags: Array<{ id: number; name: string }>;
}

async function cards(client: Client, query = ""): Promise<Card[]> {
  const r = await client.get(`/tickets/kanban${query}`);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body.tickets;
}

const idsOf = (list: Array<{ id: number }>) => list.map((c) => c.id).sort((a, b) => a - b);
const sorted = (...ids: number[]) => [...ids].sort((a, b) => a - b);
const today = () => new Date().toISOString().slice(0, 10);
const dayOffset = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

Deno.test("GET /tags/kanban lists only kanban tags by order; GET /tickets/kanban carries extra info and tags", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const third = (await admin.post("/tags", { name: "Fechamento", kanban: 1, order: 3 })).body;
    const first = (await admin.post("/tags", { name: "Contato", kanban: 1, order: 0 })).body;
    await admin.post("/tags", { name: "Só etiqueta", kanban: 0, order: 1 });
    const lanes = await admin.get("/tags/kanban");
    assert.equal(lanes.status, 200);
    // The demo's own lane 'Lead quente' has order 1.
    assert.deepEqual(lanes.body.lista.map((t: { name: string }) => t.name), ["Contato", "Lead quente", "Fechamento"]);

    const ticket = await demoTicket(server, "5511955550001", { name: "Maria Lead" });
    const put = await admin.put(`/contacts/${ticket.contactId}`, {
      extraInfo: [{ name: "Valor do Lead", value: "R$ 1.234,56" }, { name: "Origem", value: "Site" }],
    });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    assert.equal((await admin.put(`/ticket-tags/${ticket.id}/${third.id}`)).status, 200);
    const card = (await cards(admin, "?showAll=true")).find((c) => c.id === ticket.id)!;
    assert.equal(card.contact.name, "Maria Lead");
    assert.equal(card.contact.number, "5511955550001");
    assert.deepEqual(card.contact.extraInfo, [{ name: "Valor do Lead", value: "R$ 1.234,56" }, { name: "Origem", value: "Site" }]);
    assert.deepEqual(card.tags.map((t) => t.id), [third.id]);
    assert.ok(first.id > 0);
  });
});

Deno.test("GET /tickets/kanban filters by users, queues, search and dates, and hides closed tickets", async () => {
  await withServer(async (server) => {
    const [support, sales] = server.demo!.queueIds;
    const admin = await server.login("admin@demo.local");
    const agent = await server.login("agent@demo.local");
    const agentId = server.demo!.logins.find((l) => l.email === "agent@demo.local")!.id;
    const waiting = await demoTicket(server, "5511955550011", { name: "Ana Espera", queueId: support });
    const selling = await demoTicket(server, "5511955550012", { name: "Bruno Vendas", queueId: sales });
    const mine = await demoTicket(server, "5511955550013", { name: "Carla Agente", queueId: support });
    assert.equal((await agent.put(`/tickets/${mine.id}`, { status: "open" })).status, 200);
    const done = await demoTicket(server, "5511955550014", { name: "Davi Fechado", queueId: support });
    assert.equal((await admin.put(`/tickets/${done.id}`, { status: "closed" })).status, 200);

    const all = await cards(admin, "?showAll=true");
    assert.ok(!all.some((c) => c.id === done.id), "closed tickets are off the board");
    assert.ok(all.every((c) => c.status === "open" || c.status === "pending"));
    assert.deepEqual(idsOf(await cards(admin, `?showAll=true&users=${JSON.stringify([agentId])}`)), [mine.id]);
    assert.deepEqual(idsOf(await cards(admin, `?showAll=true&queueIds=${JSON.stringify([sales])}`)), [selling.id]);
    assert.deepEqual(idsOf(await cards(admin, "?showAll=true&searchParam=Ana%20Espera")), [waiting.id]);
    assert.deepEqual(idsOf(await cards(admin, "?showAll=true&searchParam=5511955550012")), [selling.id]);
    assert.equal((await cards(admin, `?showAll=true&dateFrom=${today()}&dateUntil=${today()}`)).length, all.length);
    assert.deepEqual(await cards(admin, `?showAll=true&dateUntil=${dayOffset(-1)}`), []);
    assert.deepEqual(await cards(admin, `?showAll=true&dateFrom=${dayOffset(1)}`), []);
  });
});

Deno.test("GET /tickets/kanban: managers see every ticket, a plain user only its own and its queues' waiting ones", async () => {
  await withServer(async (server) => {
    const companyId = server.demo!.companyId;
    const [support, sales] = server.demo!.queueIds;
    const admin = await server.login("admin@demo.local");
    const supervisor = await server.login("supervisor@demo.local");
    const agent = await server.login("agent@demo.local");
    const colleague = await makeUser(server, companyId, { queueIds: [support] });
    const pSupport = await demoTicket(server, "5511955550021", { queueId: support });
    const pSales = await demoTicket(server, "5511955550022", { queueId: sales });
    const oMine = await demoTicket(server, "5511955550023", { queueId: support });
    assert.equal((await agent.put(`/tickets/${oMine.id}`, { status: "open" })).status, 200);
    const oTheirs = await demoTicket(server, "5511955550024", { queueId: support });
    assert.equal((await colleague.client.put(`/tickets/${oTheirs.id}`, { status: "open" })).status, 200);

    for (const manager of [admin, supervisor]) {
      assert.deepEqual(idsOf(await cards(manager, "?showAll=true")), sorted(pSupport.id, pSales.id, oMine.id, oTheirs.id));
    }
    // showAll is a manager's option: the plain user's board is the same with or without it.
    for (const query of ["", "?showAll=true"]) {
      assert.deepEqual(idsOf(await cards(agent, query)), sorted(pSupport.id, oMine.id));
    }
    assert.deepEqual(idsOf(await cards(colleague.client)), sorted(pSupport.id, oTheirs.id));
  });
});

Deno.test("the kanban reads need the plan's useKanban; ticket tags stay open to every plan", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const agent = await server.login("agent@demo.local");
    const lane = (await admin.post("/tags", { name: "Proposta", kanban: 1, order: 1 })).body;
    const ticket = await demoTicket(server, "5511955550031");
    const owner = await server.login("super@balcao.local");
    assert.equal((await owner.put(`/plans/${server.demo!.planId}`, { useKanban: false })).status, 200);
    for (const client of [admin, agent]) {
      for (const path of ["/tickets/kanban", "/tags/kanban"]) {
        const refused = await client.get(path);
        assert.deepEqual([refused.status, refused.body.error, refused.body.message], [403, "ERR_PLAN_FEATURE", UPGRADE_TEXT], path);
      }
    }
    assert.equal((await admin.put(`/ticket-tags/${ticket.id}/${lane.id}`)).status, 200);
    assert.equal((await owner.put(`/plans/${server.demo!.planId}`, { useKanban: true })).status, 200);
    assert.equal((await admin.get("/tickets/kanban")).status, 200);
    assert.equal((await server.client().get("/tickets/kanban")).status, 401);
  });
});

Deno.test("the kanban keeps tenants apart: lanes, cards and moves", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const lane = (await admin.post("/tags", { name: "Só da Demo", kanban: 1 })).body;
    const ticket = await demoTicket(server, "5511955550041", { name: "Cliente Demo" });
    assert.equal((await admin.put(`/ticket-tags/${ticket.id}/${lane.id}`)).status, 200);

    const other = await createTenant(server, "Outro Funil");
    const theirLane = (await other.admin.post("/tags", { name: "Funil Próprio", kanban: 1 })).body;
    assert.deepEqual((await other.admin.get("/tags/kanban")).body.lista.map((t: { id: number }) => t.id), [theirLane.id]);
    assert.deepEqual(await cards(other.admin, "?showAll=true"), []);
    assert.deepEqual(await cards(other.admin, "?showAll=true&searchParam=Cliente%20Demo"), []);
    assert.equal((await other.admin.put(`/ticket-tags/${ticket.id}/${theirLane.id}`)).status, 404);
    assert.equal((await other.admin.delete(`/ticket-tags/${ticket.id}`)).status, 404);
    const card = (await cards(admin, "?showAll=true")).find((c) => c.id === ticket.id)!;
    assert.deepEqual(card.tags.map((t) => t.id), [lane.id]);
  });
});

Deno.test("a kanban move (DELETE then PUT /ticket-tags) reaches another user's socket as ticket updates", async () => {
  await withServer(async (server) => {
    const companyId = server.demo!.companyId;
    const admin = await server.login("admin@demo.local");
    const supervisor = await server.login("supervisor@demo.local");
    const from = (await admin.post("/tags", { name: "Entrada", kanban: 1, order: 1 })).body;
    const to = (await admin.post("/tags", { name: "Negociação", kanban: 1, order: 2 })).body;
    const vip = (await admin.post("/tags", { name: "Cliente VIP" })).body;
    const ticket = await demoTicket(server, "5511955550051");
    await admin.post("/tags/sync", { ticketId: ticket.id, tags: [vip.id, from.id] });

    const pool = new SocketPool(server.url);
    try {
      const watcher = await pool.connect(supervisor.token!);
      const channel = `company-${companyId}-ticket`;
      const tagIdsOf = (data: Record<string, unknown>) =>
        ((data.ticket as { tags?: Array<{ id: number }> } | undefined)?.tags ?? []).map((t) => t.id);
      const isTicket = (data: Record<string, unknown>) =>
        data.action === "update" && (data.ticket as { id?: number } | undefined)?.id === ticket.id;

      const removed = await admin.delete(`/ticket-tags/${ticket.id}`);
      assert.deepEqual(removed.body.tags, [vip.id], "the plain tag stays");
      await watcher.event(channel, (d) => isTicket(d) && tagIdsOf(d).join() === String(vip.id));
      const added = await admin.put(`/ticket-tags/${ticket.id}/${to.id}`);
      assert.deepEqual(added.body.tags, [vip.id, to.id]);
      const frame = await watcher.event(channel, (d) => isTicket(d) && tagIdsOf(d).includes(to.id));
      const moved = (frame.data as { ticket: { tags: Array<{ id: number; name: string }> } }).ticket;
      assert.deepEqual(moved.tags.map((t) => t.name), ["Cliente VIP", "Negociação"]);
      const card = (await cards(supervisor, "?showAll=true")).find((c) => c.id === ticket.id)!;
      assert.deepEqual(card.tags.map((t) => t.id), [vip.id, to.id]);
    } finally {
      await pool.closeAll();
    }
  });
});
