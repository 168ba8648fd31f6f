/**
 * The Evolution adapter against a fake Evolution API v2 server on loopback: instance
 * creation, QR, webhook-driven connection, inbound messages, sends, acks, catch-up after a
 * reconnect, logout.
 */
import assert from "node:assert/strict";
import { type Client, type TestServer, withServer } from "./helpers/server.ts";
import { eventually } from "./helpers/channels.ts";
import { fakeEvolution } from "./helpers/fake_evolution.ts";

type FakeEvolution = ReturnType<typeof fakeEvolution>;

/** Runs `fn` with a fake Evolution server, a server using it, and the demo admin signed in. */
async function withEvolution(fn: (server: TestServer, evo: FakeEvolution, admin: Client) => Promise<void>) {
  const evo = fakeEvolution();
  try {
    await withServer(async (server) => {
      server.deps.channels.configure({ evolution: { baseUrl: evo.url, apiKey: "evo-key", webhookBase: server.url } });
      await fn(server, evo, await server.login("admin@demo.local"));
    });
  } finally {
    await evo.server.shutdown();
  }
}

/** Creates an Evolution connection named `name` in the demo's first queue; its POST /whatsapp answer. */
async function addConnection(server: TestServer, admin: Client, name = "Evolution") {
  const created = await admin.post("/whatsapp", { name, provider: "evolution", queueIds: [server.demo!.queueIds[0]] });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  return created.body;
}

Deno.test("EvolutionAdapter: QR, webhook connection, inbound, send, ack, catch-up after reconnect and logout", async () => {
  await withEvolution(async (server, evo, admin) => {
    const created = await addConnection(server, admin);
    const id = created.id;
    assert.equal(created.status, "qrcode");
    assert.equal(created.qrcodeEvo, "2@EVOLUTIONQR");
    assert.equal(created.statusEvo, "qrcode");
    const create = evo.calls.find((c) => c.path === "/instance/create")!;
    assert.equal(create.apikey, "evo-key");
    const webhookUrl = (create.body as { webhook: { url: string } }).webhook.url;
    assert.ok(webhookUrl.startsWith(`${server.url}/webhooks/evolution/${id}?token=`));
    const hook = (payload: unknown) => fetch(webhookUrl, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(payload) }).then(async (r) => ({ status: r.status, body: await r.json() }));

    const forged = await fetch(`${server.url}/webhooks/evolution/${id}?token=wrong`, { method: "POST", body: "{}" });
    assert.equal(forged.status, 401);
    await forged.body?.cancel();

    evo.state.connection = "open";
    assert.equal((await hook({ event: "connection.update", instance: "x", data: { state: "open", wuid: "5511944440000@s.whatsapp.net" } })).status, 200);
    const connected = (await admin.get(`/whatsapp/${id}`)).body;
    assert.equal(connected.status, "CONNECTED");
    assert.equal(connected.statusEvo, "CONNECTED");
    assert.equal(connected.number, "5511944440000");

    await hook({
      event: "messages.upsert",
      data: { key: { remoteJid: "5521933332222@s.whatsapp.net", fromMe: false, id: "EVOIN1" }, pushName: "Eva", message: { conversation: "olá evolution" }, messageTimestamp: Math.floor(Date.now() / 1000) },
    });
    const ticket = await eventually(async () => {
      const list = (await admin.get("/tickets?showAll=true&limit=1000")).body.tickets as Array<{ id: number; contact?: { number: string } }>;
      return list.find((t) => t.contact?.number === "5521933332222");
    }, 10_000, "evolution ticket");

    const adminId = server.demo!.logins.find((l) => l.email === "admin@demo.local")!.id;
    assert.equal((await admin.put(`/tickets/${ticket.id}`, { status: "open", userId: adminId })).status, 200);
    assert.equal((await admin.post(`/messages/${ticket.id}`, { body: "resposta via evolution" })).status, 200);
    const send = await eventually(() => evo.calls.find((c) => c.path.startsWith("/message/sendText")), 10_000, "sendText call");
    assert.equal((send.body as { number: string }).number, "5521933332222");
    assert.match((send.body as { text: string }).text, /resposta via evolution/);

    await hook({ event: "messages.update", data: { keyId: "EVO1", remoteJid: "5521933332222@s.whatsapp.net", fromMe: true, status: "READ" } });
    await eventually(async () => {
      const page = (await admin.get(`/messages/${ticket.id}`)).body;
      const m = page.messages.find((x: { body: string }) => x.body.includes("resposta via evolution"));
      return m?.ack === 4 ? m : undefined;
    }, 10_000, "ack 4 from Evolution");

    // Down, a message arrives meanwhile, back up: the search fetches it.
    await hook({ event: "connection.update", data: { state: "close", statusReason: 428 } });
    assert.equal((await admin.get(`/whatsapp/${id}`)).body.status, "DISCONNECTED");
    evo.state.stored = [{ key: { remoteJid: "5521933332222@s.whatsapp.net", fromMe: false, id: "EVOMISSED" }, pushName: "Eva", message: { conversation: "enquanto caído" }, messageTimestamp: Math.floor(Date.now() / 1000) + 1 }];
    await hook({ event: "connection.update", data: { state: "open", wuid: "5511944440000@s.whatsapp.net" } });
    await eventually(async () => {
      const page = (await admin.get(`/messages/${ticket.id}`)).body;
      return page.messages.some((m: { body: string }) => m.body === "enquanto caído") ? true : undefined;
    }, 10_000, "missed message fetched after reconnect");
    assert.ok(evo.calls.some((c) => c.path.startsWith("/chat/findMessages")));

    const out = await admin.delete(`/whatsappsession/${id}`, { lib: "evolution" });
    assert.equal(out.status, 200);
    assert.ok(evo.calls.some((c) => c.method === "DELETE" && c.path.startsWith("/instance/logout/")));
    assert.equal((await admin.get(`/whatsapp/${id}`)).body.statusEvo, "DISCONNECTED");
  });
});

Deno.test("Evolution webhook (#38): the connection's API token cannot inject inbound messages; only the inbound secret Evolution was given can", async () => {
  await withEvolution(async (server, evo, admin) => {
    const id = (await addConnection(server, admin)).id;
    const apiToken: string = (await admin.get(`/whatsapp/${id}`)).body.token;
    assert.ok(apiToken, "the connection has a sending token");
    const webhookUrl = evo.state.webhooks.get(`balcao-${server.demo!.companyId}-${id}`)!;
    assert.ok(!webhookUrl.includes(encodeURIComponent(apiToken)), "the registered URL does not carry the API token");

    // The attack: whoever holds the sending token posts a customer's message as Evolution.
    const forged = { event: "messages.upsert", data: { key: { remoteJid: "5521900001111@s.whatsapp.net", fromMe: false, id: "FORGED1" }, pushName: "Falso", message: { conversation: "mensagem forjada" }, messageTimestamp: Math.floor(Date.now() / 1000) } };
    const post = (url: string) => fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(forged) });
    const refused = await post(`${server.url}/webhooks/evolution/${id}?token=${encodeURIComponent(apiToken)}`);
    assert.equal(refused.status, 401);
    await refused.body?.cancel();
    // The same body with the inbound secret is accepted: the refusal was the token's.
    const accepted = await post(webhookUrl);
    assert.equal(accepted.status, 200);
    await accepted.body?.cancel();
    const tickets = await eventually(async () => {
      const list = (await admin.get("/tickets?showAll=true&limit=1000")).body.tickets as Array<{ contact?: { number: string } }>;
      return list.some((t) => t.contact?.number === "5521900001111") ? list : undefined;
    }, 10_000, "the genuine delivery's ticket");
    assert.equal(tickets.filter((t) => t.contact?.number === "5521900001111").length, 1);
  });
});

Deno.test("Evolution: an instance that exists already gets its webhook URL set again at start", async () => {
  await withEvolution(async (server, evo, admin) => {
    const companyId = server.demo!.companyId;
    // An instance made before #38: Evolution still posts to a URL with the API token.
    const next: number = (await addConnection(server, admin, "Antiga")).id;
    const instance = `balcao-${companyId}-${next}`;
    const fresh = evo.state.webhooks.get(instance)!;
    evo.state.webhooks.set(instance, `${server.url}/webhooks/evolution/${next}?token=old-api-token`);
    await server.deps.channels.stop(companyId, next);
    await server.deps.channels.start(companyId, next);
    assert.ok(evo.calls.some((c) => c.path === `/webhook/set/${instance}` && c.apikey === "evo-key"));
    assert.equal(evo.state.webhooks.get(instance), fresh, "the same inbound secret after a restart");
  });
});
