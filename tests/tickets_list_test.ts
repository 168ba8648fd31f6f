import assert from "node:assert/strict";
import { noteMessage, setTicketTags } from "../actors/tickets/mod.ts";
import { tags } from "../actors/tags/collection.ts";
import { type Client, type TestServer, withServer } from "./helpers/server.ts";
import { inboundTicket, makeContact, makeUser, setSettings } from "./helpers/fixtures.ts";

/** A company with tickets in every list position (see the comments). */
async function scene(server: TestServer) {
  const companyId = server.demo!.companyId;
  const [support, sales] = server.demo!.queueIds;
  const agent = await server.login("agent@demo.local");
  const admin = await server.login("admin@demo.local");
  const supervisor = await server.login("supervisor@demo.local");
  const colleague = await makeUser(server, companyId, { queueIds: [support] });
  const pSupport = await inboundTicket(server, companyId, { queueId: support });
  const pSales = await inboundTicket(server, companyId, { queueId: sales });
  const pNoQueue = await inboundTicket(server, companyId, { queueId: null });
  const oMine = await inboundTicket(server, companyId, { queueId: support });
  await ok(agent.put(`/tickets/${oMine.id}`, { status: "open" }));
  const oTheirs = await inboundTicket(server, companyId, { queueId: support });
  await ok(colleague.client.put(`/tickets/${oTheirs.id}`, { status: "open" }));
  const cTheirs = await inboundTicket(server, companyId, { queueId: support });
  await ok(colleague.client.put(`/tickets/${cTheirs.id}`, { status: "open" }));
  await ok(colleague.client.put(`/tickets/${cTheirs.id}`, { status: "closed" }));
  const cMine = await inboundTicket(server, companyId, { queueId: support });
  await ok(agent.put(`/tickets/${cMine.id}`, { status: "open" }));
  await ok(agent.put(`/tickets/${cMine.id}`, { status: "closed" }));
  const gPending = await inboundTicket(server, companyId, { queueId: support, isGroup: true });
  const gSales = await inboundTicket(server, companyId, { queueId: sales, isGroup: true });
  return {
    companyId, support, sales, agent, admin, supervisor, colleague,
    ids: {
      pSupport: pSupport.id, pSales: pSales.id, pNoQueue: pNoQueue.id, oMine: oMine.id,
      oTheirs: oTheirs.id, cTheirs: cTheirs.id, cMine: cMine.id, gPending: gPending.id,
      gSales: gSales.id,
    },
  };
}

async function ok(request: Promise<{ status: number; body: unknown }>) {
  const r = await request;
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r;
}

async function listIds(client: Client, query: string): Promise<number[]> {
  const r = await ok(client.get(`/tickets?${query}`));
  const body = r.body as { tickets: Array<{ id: number }>; count: number };
  assert.equal(body.count >= body.tickets.length, true);
  return body.tickets.map((t) => t.id).sort((a, b) => a - b);
}

const sorted = (...ids: number[]) => [...ids].sort((a, b) => a - b);

Deno.test("GET /tickets shows a plain user its own open tickets and its queues' pending ones", async () => {
  await withServer(async (server) => {
    const s = await scene(server);
    const i = s.ids;
    assert.deepEqual(await listIds(s.agent, "status=open"), [i.oMine]);
    assert.deepEqual(await listIds(s.agent, "status=pending"), sorted(i.pSupport, i.pNoQueue));
    assert.deepEqual(await listIds(s.agent, "status=closed"), [i.cMine]);
    // show-all is for managers only.
    assert.deepEqual(await listIds(s.agent, "status=pending&showAll=true"), sorted(i.pSupport, i.pNoQueue));
  });
});

Deno.test("GET /tickets follows viewgroups, allusersviewgroups and viewclosed", async () => {
  await withServer(async (server) => {
    const s = await scene(server);
    const i = s.ids;
    await setSettings(server, s.companyId, { viewgroups: "enabled" });
    assert.deepEqual(await listIds(s.agent, "status=pending"), sorted(i.pSupport, i.pNoQueue, i.gPending));
    assert.deepEqual(await listIds(s.agent, "status=pending&isGroup=true"), [i.gPending]);
    await setSettings(server, s.companyId, { allusersviewgroups: "enabled" });
    assert.deepEqual(await listIds(s.agent, "status=pending&isGroup=true"), sorted(i.gPending, i.gSales));
    await setSettings(server, s.companyId, { viewclosed: "enabled" });
    assert.deepEqual(await listIds(s.agent, "status=closed"), sorted(i.cMine, i.cTheirs));
  });
});

Deno.test("GET /tickets with showAll gives managers every ticket; without, their own and queues", async () => {
  await withServer(async (server) => {
    const s = await scene(server);
    const i = s.ids;
    for (const client of [s.admin, s.supervisor]) {
      assert.deepEqual(await listIds(client, "status=open&showAll=true"), sorted(i.oMine, i.oTheirs));
      assert.deepEqual(
        await listIds(client, "status=pending&showAll=true"),
        sorted(i.pSupport, i.pSales, i.pNoQueue, i.gPending, i.gSales),
      );
      assert.deepEqual(await listIds(client, "status=open"), []);
      assert.deepEqual(await listIds(client, "status=closed&showAll=true"), sorted(i.cMine, i.cTheirs));
    }
    const all = await ok(s.admin.get("/tickets?showAll=true"));
    assert.equal((all.body as { count: number }).count, 9);
  });
});

Deno.test("GET /tickets filters by users, queues, connections, tags, unread and dates", async () => {
  await withServer(async (server) => {
    const s = await scene(server);
    const i = s.ids;
    const agentId = server.demo!.logins.find((l) => l.email === "agent@demo.local")!.id;
    assert.deepEqual(
      await listIds(s.admin, `showAll=true&users=${JSON.stringify([agentId])}`),
      sorted(i.oMine, i.cMine),
    );
    assert.deepEqual(
      await listIds(s.admin, `status=pending&showAll=true&queueIds=${JSON.stringify([s.sales])}`),
      sorted(i.pSales, i.gSales),
    );
    assert.deepEqual(await listIds(s.admin, "showAll=true&whatsappIds=[999]"), []);
    const tag = await tags.in(server.deps.system, s.companyId).create((id, now) => ({
      id, companyId: s.companyId, name: "VIP", color: "#f00", kanban: 1, order: 0, userId: null,
      createdAt: now, updatedAt: now,
    }));
    await setTicketTags(server.deps.system, s.companyId, i.pSupport, [tag.id]);
    const tagged = await ok(s.agent.get(`/tickets?status=pending&tags=[${tag.id}]`));
    const body = tagged.body as { tickets: Array<{ id: number; tags: unknown }> };
    assert.deepEqual(body.tickets.map((t) => t.id), [i.pSupport]);
    assert.deepEqual(body.tickets[0].tags, [{ id: tag.id, name: "VIP", color: "#f00" }]);

    await noteMessage(server.deps.system, s.companyId, i.pNoQueue, {
      preview: "Olá, preciso de ajuda",
      fromMe: false,
      at: Date.now(),
      unread: true,
    });
    const unread = await ok(s.agent.get("/tickets?status=pending&withUnreadMessages=true"));
    const u = unread.body as { tickets: Array<{ id: number; unreadMessages: number; lastMessage: string }> };
    assert.deepEqual(u.tickets.map((t) => t.id), [i.pNoQueue]);
    assert.equal(u.tickets[0].unreadMessages, 1);
    assert.equal(u.tickets[0].lastMessage, "Olá, preciso de ajuda");

    const today = new Date().toISOString().slice(0, 10);
    assert.equal((await listIds(s.admin, `showAll=true&dateFrom=${today}&dateUntil=${today}`)).length, 9);
    assert.deepEqual(await listIds(s.admin, "showAll=true&dateFrom=2000-01-01&dateUntil=2000-01-02"), []);
    assert.equal((await listIds(s.admin, `showAll=true&date=${today}`)).length, 9);
  });
});

Deno.test("GET /tickets pages by 25, newest first, with order, limit and rowsQuantity=all", async () => {
  await withServer(async (server) => {
    const companyId = server.demo!.companyId;
    const admin = await server.login("admin@demo.local");
    const created: number[] = [];
    for (let n = 0; n < 30; n++) created.push((await inboundTicket(server, companyId, { queueId: null })).id);
    const page1 = await ok(admin.get("/tickets?status=pending&showAll=true"));
    const p1 = page1.body as { tickets: Array<{ id: number }>; count: number; hasMore: boolean };
    assert.equal(p1.tickets.length, 25);
    assert.equal(p1.count, 30);
    assert.equal(p1.hasMore, true);
    assert.equal(p1.tickets[0].id, created[29]);
    const page2 = await ok(admin.get("/tickets?status=pending&showAll=true&pageNumber=2"));
    const p2 = page2.body as { tickets: Array<{ id: number }>; hasMore: boolean };
    assert.equal(p2.tickets.length, 5);
    assert.equal(p2.hasMore, false);
    assert.equal(p2.tickets[4].id, created[0]);
    const asc = await ok(admin.get("/tickets?status=pending&showAll=true&order=ASC&limit=3"));
    assert.deepEqual((asc.body as { tickets: Array<{ id: number }> }).tickets.map((t) => t.id), created.slice(0, 3));
    const everything = await ok(admin.get("/tickets?status=pending&showAll=true&rowsQuantity=all"));
    assert.equal((everything.body as { tickets: unknown[] }).tickets.length, 30);
    const byId = await ok(admin.get("/tickets?status=pending&showAll=true&orderBy=id&order=ASC&limit=2&pageNumber=2"));
    assert.deepEqual((byId.body as { tickets: Array<{ id: number }> }).tickets.map((t) => t.id), created.slice(2, 4));
    // A plain user's list walks several index lists merged.
    const agent = await server.login("agent@demo.local");
    const mine = await ok(agent.get("/tickets?status=pending&pageNumber=2"));
    assert.equal((mine.body as { tickets: unknown[]; count: number }).count, 30);
  });
});

Deno.test("GET /tickets?searchParam matches contact name, number and ticket id within visibility", async () => {
  await withServer(async (server) => {
    const companyId = server.demo!.companyId;
    const [support, sales] = server.demo!.queueIds;
    const agent = await server.login("agent@demo.local");
    const admin = await server.login("admin@demo.local");
    const joana = await makeContact(server, companyId, { name: "Joana Prado", number: "5511955501234" });
    const other = await makeContact(server, companyId, { name: "Joana Vendas", number: "5511955509999" });
    const t1 = await inboundTicket(server, companyId, { contact: joana, queueId: support });
    const t2 = await inboundTicket(server, companyId, { contact: other, queueId: sales });
    assert.deepEqual(await listIds(agent, "searchParam=joana"), [t1.id]);
    assert.deepEqual(await listIds(admin, "searchParam=joana&showAll=true"), sorted(t1.id, t2.id));
    assert.deepEqual(await listIds(admin, "searchParam=55501234&showAll=true"), [t1.id]);
    assert.ok((await listIds(admin, `searchParam=${t2.id}&showAll=true`)).includes(t2.id));
  });
});

Deno.test("GET /ticketsCount counts open, pending and unread groups as the lists do", async () => {
  await withServer(async (server) => {
    const s = await scene(server);
    const agentCount = await ok(s.agent.get("/ticketsCount"));
    assert.deepEqual(agentCount.body, { openTicketsCount: 1, pendingTicketsCount: 2, unreadGroupsCount: 0 });
    await noteMessage(server.deps.system, s.companyId, s.ids.gSales, {
      preview: "oi", fromMe: false, at: Date.now(), unread: true,
    });
    const adminCount = await ok(s.admin.get("/ticketsCount?showAll=true"));
    assert.deepEqual(adminCount.body, { openTicketsCount: 2, pendingTicketsCount: 5, unreadGroupsCount: 1 });
  });
});

Deno.test("GET /tickets/kanban returns open and pending tickets with extraInfo and tags", async () => {
  await withServer(async (server) => {
    const s = await scene(server);
    const r = await ok(s.admin.get("/tickets/kanban?showAll=true"));
    const body = r.body as { tickets: Array<{ id: number; status: string; contact: { extraInfo: unknown } }> };
    assert.equal(body.tickets.length, 7);
    assert.ok(body.tickets.every((t) => t.status !== "closed"));
    assert.ok(Array.isArray(body.tickets[0].contact.extraInfo));
    const agentView = await ok(s.agent.get("/tickets/kanban"));
    const ids = (agentView.body as { tickets: Array<{ id: number }> }).tickets.map((t) => t.id);
    assert.deepEqual(ids.sort((a, b) => a - b), sorted(s.ids.pSupport, s.ids.pNoQueue, s.ids.oMine));
  });
});

Deno.test("GET /tickets asked twice answers what changed in between: kept pages and items follow every change they join", async () => {
  await withServer(async (server) => {
    const companyId = server.demo!.companyId;
    const [support] = server.demo!.queueIds;
    const admin = await server.login("admin@demo.local");
    const ticket = await inboundTicket(server, companyId, { queueId: support });
    const path = "/tickets?status=pending&showAll=true";
    type Item = { id: number; status: string; contact: { name: string }; queue: { name: string } | null; tags: Array<{ name: string }> };
    const item = async (p = path) => ((await ok(admin.get(p))).body as { tickets: Item[] }).tickets.find((t) => t.id === ticket.id);
    const first = await item();
    assert.ok(first, "the new ticket is listed");
    assert.deepEqual(await item(), first, "the same request answers the same item");

    const contact = (await ok(admin.get(`/contacts/${ticket.contactId}`))).body as { number: string };
    await ok(admin.put(`/contacts/${ticket.contactId}`, { name: "Nome Novo", number: contact.number }));
    assert.equal((await item())?.contact.name, "Nome Novo", "a renamed contact shows at once");

    const queue = (await ok(admin.get(`/queue/${support}`))).body as Record<string, unknown>;
    await ok(admin.put(`/queue/${support}`, { ...queue, name: "Suporte Renomeado" }));
    assert.equal((await item())?.queue?.name, "Suporte Renomeado", "a renamed queue shows at once");

    const tag = (await ok(admin.post("/tags", { name: "Urgente", color: "#ff0000" }))).body as { id: number };
    await setTicketTags(server.deps.system, companyId, ticket.id, [tag.id]);
    assert.deepEqual((await item())?.tags.map((t) => t.name), ["Urgente"], "a tag added shows at once");

    await ok(admin.put(`/tickets/${ticket.id}`, { status: "open" }));
    assert.equal(await item(), undefined, "an accepted ticket leaves the pending page");
    assert.equal((await item("/tickets?status=open&showAll=true"))?.status, "open");
  });
});
