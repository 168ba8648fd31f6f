/**
 * The simulator end to end over HTTP: scan, inbound → pending ticket, reply → outbox → ack,
 * duplicates, concurrency, disconnects and resume, failed sends.
 */
import assert from "node:assert/strict";
import { type Client, type TestServer, withServer } from "./helpers/server.ts";
import { demoConnection, eventually, sessionEvents } from "./helpers/channels.ts";

/** Accepts a pending ticket as the admin (replies need an open ticket). */
async function accept(server: TestServer, admin: Client, ticketId: number): Promise<void> {
  const adminId = server.demo!.logins.find((l) => l.email === "admin@demo.local")!.id;
  const r = await admin.put(`/tickets/${ticketId}`, { status: "open", userId: adminId });
  assert.equal(r.status, 200, JSON.stringify(r.body));
}

const pendingTickets = async (admin: { get(path: string): Promise<{ body: { tickets: Array<{ id: number; contact?: { number: string } }> } }> }) =>
  (await admin.get("/tickets?status=pending&showAll=true&limit=1000")).body.tickets;

Deno.test("simulator: a new connection starts at qrcode and POST /simulator/{id}/scan connects it", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const created = await admin.post("/whatsapp", { name: "Loja Centro" });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const id = created.body.id;
    assert.equal(created.body.status, "qrcode");
    const shown = await admin.get(`/whatsapp/${id}`);
    assert.match(shown.body.qrcode, /^balcao-simulator:/);
    const qr = await admin.get(`/simulator/${id}/qr`);
    assert.match(qr.body.svg, /<svg/);

    const watch = sessionEvents(server, id);
    const scan = await admin.post(`/simulator/${id}/scan`);
    assert.equal(scan.status, 200);
    const after = await eventually(async () => {
      const r = await admin.get(`/whatsapp/${id}`);
      return r.body.status === "CONNECTED" ? r.body : undefined;
    });
    assert.equal(after.qrcode, "");
    assert.match(after.number, /^55119/);
    await eventually(() => (watch.events.at(-1)?.success === true ? true : undefined), 10_000, "success event");
    const statuses = watch.events.map((e) => (e.session as { status: string }).status);
    assert.deepEqual(statuses.slice(-2), ["PAIRING", "CONNECTED"]);
    assert.equal(watch.events.at(-1)?.success, true);
    watch.stop();
  });
});

Deno.test("simulator: inbound creates a pending ticket, the agent's reply reaches the outbox and its ack comes back", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const demo = await demoConnection(admin);
    assert.equal(demo.status, "CONNECTED");
    const sent = await admin.post(`/simulator/${demo.id}/inbound`, { from: "5511987650001", name: "Maria", body: "Oi, preciso de ajuda" });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    assert.equal(sent.body.queued, false);
    const ticket = await eventually(async () => (await pendingTickets(admin)).find((t) => t.contact?.number === "5511987650001"), 10_000, "pending ticket");

    // The connection has two queues: the greeting with the queue menu went out first.
    const menu = await eventually(async () => {
      const box = (await admin.get(`/simulator/${demo.id}/outbox`)).body.messages;
      return box.find((m: { to: string; body: string }) => m.to === "5511987650001" && m.body.includes("*2* - Vendas"));
    }, 10_000, "queue menu");
    assert.match(menu.body, /\*1\* - Suporte/);

    await accept(server, admin, ticket.id);
    const reply = await admin.post(`/messages/${ticket.id}`, { body: "Olá Maria, como posso ajudar?" });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    const out = await eventually(async () => {
      const box = (await admin.get(`/simulator/${demo.id}/outbox`)).body.messages;
      return box.find((m: { body: string }) => m.body.includes("como posso ajudar"));
    }, 10_000, "reply in outbox");
    assert.equal(out.to, "5511987650001");
    assert.match(out.id, /^SIMOUT/);

    const ack = await admin.post(`/simulator/${demo.id}/ack`, { id: out.id, ack: 3 });
    assert.equal(ack.status, 200);
    await eventually(async () => {
      const page = (await admin.get(`/messages/${ticket.id}`)).body;
      const stored = page.messages.find((m: { body: string }) => m.body.includes("como posso ajudar"));
      return stored?.ack === 3 ? stored : undefined;
    }, 10_000, "ack 3 on the stored message");
  });
});

Deno.test("simulator: the same provider id twice stores one message", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const demo = await demoConnection(admin);
    const body = { from: "5511987650002", name: "João", body: "mensagem única", id: "WAMID-DUP-1" };
    await admin.post(`/simulator/${demo.id}/inbound`, body);
    await admin.post(`/simulator/${demo.id}/inbound`, body);
    const ticket = await eventually(async () => (await pendingTickets(admin)).find((t) => t.contact?.number === "5511987650002"));
    const page = await eventually(async () => {
      const p = (await admin.get(`/messages/${ticket.id}`)).body;
      return p.messages?.some((m: { body: string }) => m.body === "mensagem única") ? p : undefined;
    });
    await new Promise((r) => setTimeout(r, 200));
    const again = (await admin.get(`/messages/${ticket.id}`)).body;
    assert.equal(again.messages.filter((m: { body: string }) => m.body === "mensagem única").length, 1);
    assert.ok(page);
  });
});

Deno.test("simulator: 100 concurrent inbound messages from 10 numbers open exactly 10 tickets", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const demo = await demoConnection(admin);
    const numbers = Array.from({ length: 10 }, (_, i) => `55219876500${String(i).padStart(2, "0")}`);
    const posts = Array.from({ length: 100 }, (_, i) =>
      admin.post(`/simulator/${demo.id}/inbound`, { from: numbers[i % 10], name: `Cliente ${i % 10}`, body: `msg ${i}` }));
    const results = await Promise.all(posts);
    assert.ok(results.every((r) => r.status === 200));
    const tickets = await eventually(async () => {
      const list = (await pendingTickets(admin)).filter((t) => numbers.includes(t.contact?.number ?? ""));
      return list.length >= 10 ? list : undefined;
    }, 15_000, "10 tickets");
    await new Promise((r) => setTimeout(r, 300));
    const final = (await pendingTickets(admin)).filter((t) => numbers.includes(t.contact?.number ?? ""));
    assert.equal(final.length, 10);
    assert.equal(new Set(final.map((t) => t.contact?.number)).size, 10);
    assert.equal(tickets.length, 10);
  });
});

Deno.test("simulator: a disconnected connection refuses replies with ERR_WAPP_NOT_INITIALIZED and delivers queued inbound on reconnect", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const demo = await demoConnection(admin);
    await admin.post(`/simulator/${demo.id}/inbound`, { from: "5511987650003", name: "Ana", body: "antes" });
    const ticket = await eventually(async () => (await pendingTickets(admin)).find((t) => t.contact?.number === "5511987650003"));

    await accept(server, admin, ticket.id);
    const watch = sessionEvents(server, demo.id);
    await admin.post(`/simulator/${demo.id}/disconnect`);
    await eventually(async () => ((await admin.get(`/whatsapp/${demo.id}`)).body.status === "DISCONNECTED" ? true : undefined));
    await eventually(() => (watch.events.some((e) => e.dropped === true) ? true : undefined), 10_000, "drop alert");
    const refused = await admin.post(`/messages/${ticket.id}`, { body: "alguém aí?" });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.error, "ERR_WAPP_NOT_INITIALIZED");

    const queued = await admin.post(`/simulator/${demo.id}/inbound`, { from: "5511987650003", name: "Ana", body: "enquanto caído" });
    assert.equal(queued.body.queued, true);
    await admin.post(`/simulator/${demo.id}/scan`);
    await eventually(async () => ((await admin.get(`/whatsapp/${demo.id}`)).body.status === "CONNECTED" ? true : undefined));
    await eventually(() => (watch.events.at(-1)?.success === true ? true : undefined), 10_000, "back-online alert");
    await eventually(async () => {
      const p = (await admin.get(`/messages/${ticket.id}`)).body;
      return p.messages?.some((m: { body: string }) => m.body === "enquanto caído") ? true : undefined;
    }, 10_000, "queued message delivered after reconnect");
    watch.stop();
  });
});

Deno.test("simulator: a failing send is retried, and after the last try the message is marked failed", async () => {
  await withServer(async (server) => {
    server.deps.channels.configure({ retryDelays: [50, 50] });
    const admin = await server.login("admin@demo.local");
    const demo = await demoConnection(admin);
    await admin.post(`/simulator/${demo.id}/inbound`, { from: "5511987650004", name: "Rui", body: "oi" });
    const ticket = await eventually(async () => (await pendingTickets(admin)).find((t) => t.contact?.number === "5511987650004"));
    await server.deps.channels.get(server.demo!.companyId, demo.id)!.drained();
    await accept(server, admin, ticket.id);

    await admin.post(`/simulator/${demo.id}/fail`, { count: 2 });
    await admin.post(`/messages/${ticket.id}`, { body: "terceira tentativa" });
    await eventually(async () => {
      const box = (await admin.get(`/simulator/${demo.id}/outbox`)).body.messages;
      return box.find((m: { body: string }) => m.body.includes("terceira tentativa"));
    }, 10_000, "retried send");

    await admin.post(`/simulator/${demo.id}/fail`, { count: 3 });
    await admin.post(`/messages/${ticket.id}`, { body: "nunca chega" });
    const failed = await eventually(async () => {
      const page = (await admin.get(`/messages/${ticket.id}`)).body;
      const m = page.messages.find((x: { body: string }) => x.body.includes("nunca chega"));
      return m?.failed ? m : undefined;
    }, 10_000, "failed mark");
    assert.equal(failed.failed.code, "ERR_SENDING_WAPP_MSG");
    assert.equal(failed.failed.attempts, 3);
  });
});

Deno.test("simulator: endpoints refuse non-simulator connections and non-admins", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const agent = await server.login("agent@demo.local");
    const demo = await demoConnection(admin);
    const denied = await agent.get(`/simulator/${demo.id}/outbox`);
    assert.equal(denied.status, 403);
    const other = await admin.post("/whatsapp", { name: "Baileys", provider: "baileys" });
    assert.equal(other.status, 200);
    const refused = await admin.get(`/simulator/${other.body.id}/outbox`);
    assert.equal(refused.status, 404);
    // The page (issue #37: an admin's page inside the app) for the admin's browser.
    const page = await fetch(`${server.url}/simulator`, { headers: { cookie: admin.cookie, accept: "text/html" } });
    assert.equal(page.status, 200);
    assert.match(await page.text(), /Simulador de WhatsApp/);
  });
});

Deno.test("Channels.checkNumber() and sends share one per-connection pacer", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const demo = await demoConnection(admin);
    const companyId = server.demo!.companyId;
    server.deps.channels.configure({ pacing: { simulator: { perMinute: 2, jitterMs: 0 } } });
    const channels = server.deps.channels;
    const t0 = Date.now();
    assert.deepEqual(await channels.checkNumber(companyId, demo.id, "5511987650009"), { exists: true, jid: "5511987650009@s.whatsapp.net" });
    await channels.pace(companyId, demo.id);
    const third = Promise.race([channels.pace(companyId, demo.id).then(() => "granted"), new Promise((r) => setTimeout(() => r("waiting"), 300))]);
    assert.equal(await third, "waiting", "the third use within a minute waits for the window");
    assert.ok(Date.now() - t0 < 5000);
    await admin.post(`/simulator/${demo.id}/disconnect`);
    await eventually(async () => ((await admin.get(`/whatsapp/${demo.id}`)).body.status === "DISCONNECTED" ? true : undefined));
    await assert.rejects(channels.checkNumber(companyId, demo.id, "5511987650009"), /not connected/);
  });
});

Deno.test("simulator: a group message goes to the group's ticket with its participant", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const demo = await demoConnection(admin);
    const group = { isGroup: true, groupId: "120363000111", groupName: "Equipe Loja" };
    await admin.post(`/simulator/${demo.id}/inbound`, { ...group, from: "5511987651111", name: "Beto", body: "oi grupo" });
    await admin.post(`/simulator/${demo.id}/inbound`, { ...group, from: "5511987652222", name: "Cida", body: "oi de novo" });
    const ticket = await eventually(async () => {
      const list = (await admin.get("/tickets?showAll=true&isGroup=true&limit=1000")).body.tickets as Array<{ id: number; isGroup: boolean; contact?: { number: string; name: string } }>;
      return list.find((t) => t.contact?.number === "120363000111");
    }, 10_000, "group ticket");
    assert.equal(ticket.isGroup, true);
    const page = await eventually(async () => {
      const p = (await admin.get(`/messages/${ticket.id}`)).body;
      return p.messages?.length >= 2 ? p : undefined;
    }, 10_000, "both group messages");
    assert.deepEqual(page.messages.map((m: { body: string }) => m.body).sort(), ["oi de novo", "oi grupo"]);
    const all = (await admin.get("/tickets?showAll=true&isGroup=true&limit=1000")).body.tickets as Array<{ contact?: { number: string } }>;
    assert.equal(all.filter((t) => t.contact?.number === "120363000111").length, 1);
  });
});
