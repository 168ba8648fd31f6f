/**
 * GET /metrics (issue #40) against a real server: a scrape before and after real traffic (a
 * customer's message through the simulator, the bot's menu and an agent's replies, a retried
 * and a failed send, a scheduled message whose timer fires, a WebSocket, a few API calls), and
 * the counters and histograms moved by what that traffic did; no label carries a number, a
 * name or a message; the token guards the endpoint.
 */
import assert from "node:assert/strict";
import { eventually } from "./helpers/channels.ts";
import { demoConnection } from "./helpers/channels.ts";
import { freshNumber } from "./helpers/messages.ts";
import { type Scrape, scrape } from "./helpers/prometheus.ts";
import { type Client, type TestServer, withServer } from "./helpers/server.ts";
import { WsClient } from "./helpers/ws.ts";

const TOKEN = "scrape-secret-of-the-test";

async function outbox(admin: Client, whatsappId: number, to: string): Promise<Array<{ body: string }>> {
  const box = (await admin.get(`/simulator/${whatsappId}/outbox`)).body.messages as Array<{ to: string; body: string }>;
  return box.filter((m) => m.to === to);
}

async function acceptAsAdmin(server: TestServer, admin: Client, ticketId: number): Promise<void> {
  const adminId = server.demo!.logins.find((l) => l.email === "admin@demo.local")!.id;
  const r = await admin.put(`/tickets/${ticketId}`, { status: "open", userId: adminId });
  assert.equal(r.status, 200, JSON.stringify(r.body));
}

const delta = (before: Scrape, after: Scrape, name: string, labels: Record<string, string> = {}) =>
  after.value(name, labels) - before.value(name, labels);

Deno.test("GET /metrics moves by what real traffic did, and no label names a customer", async () => {
  await withServer(async (server) => {
    server.deps.channels.configure({ retryDelays: [20, 20] });
    const admin = await server.login("admin@demo.local");
    const demo = await demoConnection(admin);
    const sim = { channel: "simulator" };
    const before = await scrape(server.url, TOKEN);
    assert.equal(before.value("balcao_whatsapp_sessions", { status: "CONNECTED", channel: "simulator" }), 1);
    assert.equal(before.value("balcao_ready"), 1);
    assert.equal(before.value("balcao_companies_held"), (await server.login("super@balcao.local").then((s) => s.get("/companies/list"))).body.length);

    // A socket of the admin, open while the customer writes.
    const socket = new WsClient(server.url, { token: admin.token });
    await socket.hello();

    const number = freshNumber();
    const name = "Mariana Métrica";
    const sent = await admin.post(`/simulator/${demo.id}/inbound`, { from: number, name, body: "Quero falar sobre meu pedido 4471" });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    const ticket = await eventually(async () => {
      const list = (await admin.get("/tickets?status=pending&showAll=true")).body.tickets as Array<{ id: number; contact: { number: string } }>;
      return list.find((t) => t.contact.number === number);
    }, 10_000, "the customer's ticket");
    // The bot's greeting with the queue menu goes out first.
    await eventually(async () => (await outbox(admin, demo.id, number)).length > 0 || undefined, 10_000, "the queue menu");
    await server.deps.channels.get(server.demo!.companyId, demo.id)!.drained();
    await acceptAsAdmin(server, admin, ticket.id);

    // A reply sent after one failed try (one retry), and one that fails all three tries.
    assert.equal((await admin.post(`/simulator/${demo.id}/fail`, { count: 1 })).status, 200);
    assert.equal((await admin.post(`/messages/${ticket.id}`, { body: "Olá, já vejo seu pedido" })).status, 200);
    await eventually(async () => (await outbox(admin, demo.id, number)).some((m) => m.body.includes("já vejo")) || undefined, 10_000, "the reply");
    assert.equal((await admin.post(`/simulator/${demo.id}/fail`, { count: 3 })).status, 200);
    assert.equal((await admin.post(`/messages/${ticket.id}`, { body: "Esta não sai" })).status, 200);
    await eventually(async () => {
      const page = (await admin.get(`/messages/${ticket.id}`)).body;
      return page.messages.some((m: { body: string; failed?: unknown }) => m.body.includes("Esta não sai") && m.failed) || undefined;
    }, 10_000, "the failed mark");

    // A scheduled message: its durable timer rings and the message goes out.
    const contactId = (await admin.get(`/tickets/${ticket.id}`)).body.contact.id;
    const schedule = await admin.post("/schedules", { body: "Lembrete do pedido", contactId, sendAt: new Date(Date.now() + 300).toISOString() });
    assert.equal(schedule.status, 200, JSON.stringify(schedule.body));
    await eventually(async () => (await outbox(admin, demo.id, number)).some((m) => m.body.includes("Lembrete do pedido")) || undefined, 10_000, "the scheduled message");

    // Five reads of one ticket: one route template, whatever the id.
    for (let i = 0; i < 5; i++) assert.equal((await admin.get(`/tickets/${ticket.id}`)).status, 200);
    await socket.until((f) => "channel" in f && f.channel === `company-${server.demo!.companyId}-ticket`);
    await server.deps.channels.get(server.demo!.companyId, demo.id)!.drained();
    const after = await scrape(server.url, TOKEN);

    assert.equal(delta(before, after, "balcao_messages_inbound_total", sim), 1);
    // Everything the phone received for this customer, each accepted once by the provider.
    const received = (await outbox(admin, demo.id, number)).length;
    assert.ok(received >= 3, `menu, reply and reminder: ${received}`);
    assert.equal(delta(before, after, "balcao_messages_outbound_total", sim), received);
    assert.equal(delta(before, after, "balcao_messages_outbound_retries_total", sim), 1 + 2);
    assert.equal(delta(before, after, "balcao_messages_outbound_failed_total", sim), 1);
    assert.equal(delta(before, after, "balcao_messages_inbound_total", { channel: "baileys" }), 0);

    // Commits: every unit counted once, in atomics that batched them.
    const commits = delta(before, after, "balcao_kv_commit_seconds_count");
    assert.ok(commits > 0);
    assert.equal(delta(before, after, "balcao_kv_commit_units_count"), commits);
    assert.ok(delta(before, after, "balcao_kv_commit_units_sum") >= commits);
    assert.ok(delta(before, after, "balcao_kv_mutations_total") >= delta(before, after, "balcao_kv_commit_units_sum"));
    assert.ok(delta(before, after, "balcao_kv_commit_seconds_sum") > 0);
    // The schedule's timer (and any other due meanwhile) rang, on time within the buckets' reach.
    assert.ok(delta(before, after, "balcao_timer_lag_seconds_count") >= 1);
    assert.ok(after.value("balcao_timer_lag_seconds_bucket", { le: "+Inf" }) === after.value("balcao_timer_lag_seconds_count"));

    assert.equal(after.value("balcao_websocket_sockets"), 1);
    assert.equal(delta(before, after, "balcao_websocket_sockets_opened_total"), 1);
    assert.ok(delta(before, after, "balcao_websocket_events_sent_total") >= 1);
    assert.ok(delta(before, after, "balcao_websocket_messages_sent_total") >= 2, "hello and at least one event");

    const ticketRoute = { method: "GET", route: "/tickets/:id", status: "200" };
    assert.equal(delta(before, after, "balcao_http_request_duration_seconds_count", ticketRoute), 5 + 1);
    assert.equal(
      after.value("balcao_http_request_duration_seconds_bucket", { ...ticketRoute, le: "+Inf" }),
      after.value("balcao_http_request_duration_seconds_count", ticketRoute),
    );
    assert.equal(delta(before, after, "balcao_read_model_entries", { model: "tickets" }), 1);
    assert.equal(delta(before, after, "balcao_read_model_entries", { model: "contacts" }), 1);
    assert.ok(after.value("balcao_read_model_largest", { model: "tickets" }) >= 1);
    assert.ok(after.value("balcao_actors_live") > 0);
    assert.ok(after.has("balcao_actor_mailbox_depth"));
    assert.ok(after.value("balcao_process_memory_bytes", { kind: "rss" }) > 0);

    // No label value carries the customer's number (or a part of it), name or words.
    for (const value of after.labelValues()) {
      assert.doesNotMatch(value, /\d{6,}/, `a label looks like a number: ${value}`);
      for (const secret of [number, number.slice(-8), name, "Mariana", "pedido", "4471"]) {
        assert.ok(!value.includes(secret), `a label names ${secret}: ${value}`);
      }
    }
    await socket.close();
  }, { metricsToken: TOKEN });
});

Deno.test("GET /metrics answers only its token's bearer, and does not exist without one", async () => {
  await withServer(async (server) => {
    assert.equal((await fetch(`${server.url}/metrics`)).status, 401);
    const wrong = await fetch(`${server.url}/metrics`, { headers: { authorization: "Bearer not-it" } });
    assert.equal(wrong.status, 401);
    await wrong.body?.cancel();
    const admin = await server.login("admin@demo.local");
    assert.equal((await admin.get("/metrics")).status, 401, "a user's access token is not the scrape's");
    const right = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(right.status, 200);
    assert.match(right.headers.get("content-type") ?? "", /^text\/plain; version=0\.0\.4/);
    assert.match(await right.text(), /^# HELP balcao_/m);
  }, { metricsToken: TOKEN });
  await withServer(async (server) => {
    const none = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(none.status, 404);
    await none.body?.cancel();
  });
});
