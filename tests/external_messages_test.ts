/** POST /api/messages/send over real HTTP (spec 001 §2.17, §5, §7; issue #22). */
import assert from "node:assert/strict";
import { companies, PLATFORM } from "../actors/platform/collections.ts";
import { whatsapps } from "../actors/whatsapps/collection.ts";
import { requestFingerprint, UPGRADE_TEXT } from "../domain/external_message.ts";
import { setExternalApiRate } from "../server/api/external_messages_state.ts";
import { eventually } from "./helpers/channels.ts";
import { makeConnection } from "./helpers/fixtures.ts";
import { freshNumber, inboundText, nextEvent, receive } from "./helpers/messages.ts";
import { type ApiResult, type TestServer, withServer } from "./helpers/server.ts";
import { createTenant } from "./helpers/tenants.ts";
import { SocketPool } from "./helpers/ws.ts";

/** The demo connection (simulator, paired) and its token. */
async function demoConnection(server: TestServer) {
  const list = await whatsapps.in(server.deps.system, server.demo!.companyId).list();
  const conn = list.find((w) => w.name === "WhatsApp Demo")!;
  assert.ok(conn.token, "the demo connection has a token");
  return conn;
}

/** POSTs to the API with `token` as the bearer (a JSON body or a form). */
async function send(
  server: TestServer,
  token: string | undefined,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<ApiResult> {
  const all: Record<string, string> = { ...headers };
  if (token !== undefined) all.authorization = `Bearer ${token}`;
  let payload: BodyInit;
  if (body instanceof FormData) payload = body;
  else if (typeof body === "string") {
    all["content-type"] = "application/json";
    payload = body;
  } else {
    all["content-type"] = "application/json";
    payload = JSON.stringify(body);
  }
  const response = await fetch(`${server.url}/api/messages/send`, { method: "POST", headers: all, body: payload });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null, headers: response.headers };
}

/** "(11) 9xxxx-xxxx" of a fresh number, and its stored form. */
function localNumber(): { written: string; stored: string } {
  const stored = freshNumber();
  const local = stored.slice(4);
  return { written: `(${stored.slice(2, 4)}) ${local.slice(0, 5)}-${local.slice(5)}`, stored };
}

Deno.test("POST /api/messages/send stores the text in the contact's ticket, live, and sends it through the simulator", async () => {
  await withServer(async (server) => {
    const conn = await demoConnection(server);
    const [support] = server.demo!.queueIds;
    const admin = await server.login("admin@demo.local");
    const pool = new SocketPool(server.url);
    try {
      const ws = await pool.connect(admin.token!);
      const { written, stored } = localNumber();
      const D = server.demo!.companyId;
      // The message event as the hub gets it, and the ticket's update as the admin's socket does.
      const message = nextEvent(server, (e) =>
        e.channel === `company-${D}-appMessage` && (e.data as { message?: { body?: string } }).message?.body === "Olá da API");
      const live = ws.event(`company-${D}-ticket`, (d) => (d.ticket as { lastMessage?: string })?.lastMessage === "Olá da API");

      const sent = await send(server, conn.token, { number: written, body: "Olá da API", openTicket: 1, queueId: support });
      assert.equal(sent.status, 200, JSON.stringify(sent.body));
      assert.equal(sent.body.message, "Mensagem enviada com sucesso");
      assert.equal(sent.body.number, stored, "country code 55 added to the local number");
      assert.equal(sent.body.contact.number, stored);
      assert.deepEqual([sent.body.ticket.status, sent.body.ticket.queueId], ["pending", support]);
      assert.equal(sent.body.messages.length, 1);

      assert.equal(((await message).data as { ticket: { id: number } }).ticket.id, sent.body.ticket.id);
      assert.equal(((await live).data as { ticket: { id: number } }).ticket.id, sent.body.ticket.id);

      const page = await admin.get(`/messages/${sent.body.ticket.id}`);
      assert.equal(page.status, 200);
      assert.deepEqual(page.body.messages.map((m: { body: string; fromMe: boolean }) => [m.body, m.fromMe]), [["Olá da API", true]]);

      const phone = await server.deps.channels.simulator(server.demo!.companyId, conn.id);
      await eventually(() => phone.outbox.find((e) => e.body === "Olá da API" && e.to === stored), 10_000, "the simulator's copy");
    } finally {
      await pool.closeAll();
    }
  });
});

Deno.test("POST /api/messages/send refuses a missing, unknown or empty token (401)", async () => {
  await withServer(async (server) => {
    const text = { number: freshNumber(), body: "x", openTicket: 0 };
    for (const token of [undefined, "", "not-a-token"]) {
      const refused = await send(server, token, text);
      assert.equal(refused.status, 401, `token ${token}`);
      assert.equal(refused.body.error, "ERR_SESSION_EXPIRED");
    }
    // A connection with an empty token cannot be used, whatever is sent.
    await makeConnection(server, server.demo!.companyId, { token: "", isDefault: false });
    assert.equal((await send(server, "", text)).status, 401);
    // A token stops working as soon as the connection's token changes.
    const conn = await demoConnection(server);
    await whatsapps.in(server.deps.system, conn.companyId).update(conn.id, (old) => ({ ...old, token: "renewed" }), () => new Error("gone"));
    assert.equal((await send(server, conn.token, text)).status, 401);
    assert.equal((await send(server, "renewed", text)).status, 200);
  });
});

Deno.test("POST /api/messages/send keeps a token inside its company", async () => {
  await withServer(async (server) => {
    const a = await demoConnection(server);
    const tenant = await createTenant(server, "Outra Empresa");
    const b = await makeConnection(server, tenant.companyId, { token: "token-of-b", provider: "simulator" });
    const phoneB = await server.deps.channels.simulator(tenant.companyId, b.id);
    await phoneB.scan();
    const admin = await server.login("admin@demo.local");
    const queue = (client: typeof admin, name: string) =>
      client.post("/queue", { name, color: `#${name.length}${crypto.randomUUID().slice(0, 5)}`, prioridade: 1, greetingMessage: "" });
    // Queue ids count per company: A gets 3; B gets 1 to 4 and deletes 3: 3 is only A's, 4 only B's.
    const onlyA = (await queue(admin, "Fila A3")).body.id;
    let onlyB = 0;
    for (const name of ["Fila B1", "Fila B2", "Fila B3", "Fila B4"]) onlyB = (await queue(tenant.admin, name)).body.id;
    assert.deepEqual([onlyA, onlyB], [3, 4]);
    assert.equal((await tenant.admin.delete("/queue/3")).status, 200);

    const crossA = await send(server, a.token, { number: freshNumber(), body: "x", openTicket: 1, queueId: onlyB });
    assert.deepEqual([crossA.status, crossA.body.error], [404, "ERR_NO_QUEUE_FOUND"]);
    const crossB = await send(server, b.token, { number: freshNumber(), body: "x", openTicket: 1, queueId: onlyA });
    assert.deepEqual([crossB.status, crossB.body.error], [404, "ERR_NO_QUEUE_FOUND"]);

    // What each token sends lands in its own company only.
    const numberA = freshNumber();
    const numberB = freshNumber();
    assert.equal((await send(server, a.token, { number: numberA, body: "só da A", openTicket: 0 })).status, 200);
    const sentB = await send(server, b.token, { number: numberB, body: "só da B", openTicket: 1, queueId: onlyB });
    assert.equal(sentB.status, 200, JSON.stringify(sentB.body));
    const found = async (client: typeof admin, number: string) =>
      (await client.get(`/contacts/?searchParam=${number}`)).body.contacts.length;
    assert.deepEqual([await found(admin, numberA), await found(tenant.admin, numberA)], [1, 0]);
    assert.deepEqual([await found(admin, numberB), await found(tenant.admin, numberB)], [0, 1]);
    const pageB = await tenant.admin.get(`/messages/${sentB.body.ticket.id}`);
    assert.deepEqual(pageB.body.messages.map((m: { body: string }) => m.body), ["só da B"]);
  });
});

Deno.test("POST /api/messages/send validates the fields of spec 001 §5", async () => {
  await withServer(async (server) => {
    const { token } = await demoConnection(server);
    const empty = await send(server, token, {});
    assert.equal(empty.status, 400);
    assert.equal(empty.body.error, "ERR_VALIDATION");
    assert.deepEqual(empty.body.fields, { number: "Required", body: "Required", openTicket: "Required" });

    const opening = await send(server, token, { number: freshNumber(), body: "x", openTicket: 1 });
    assert.deepEqual([opening.status, opening.body.fields], [400, { queueId: "Required" }]);

    const queue = await send(server, token, { number: freshNumber(), body: "x", openTicket: 1, queueId: 9999 });
    assert.deepEqual([queue.status, queue.body.error], [404, "ERR_NO_QUEUE_FOUND"]);

    // A urlencoded form is read as such.
    const form = await fetch(`${server.url}/api/messages/send`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
      body: new URLSearchParams({ number: freshNumber(), body: "de um formulário", openTicket: "0" }),
    });
    assert.equal(form.status, 200, await form.clone().text());
    assert.equal((await form.json()).messages[0].body, "de um formulário");

    const json = await send(server, token, "{not json");
    assert.deepEqual([json.status, json.body.error], [400, "ERR_VALIDATION"]);

    // The simulator knows numbers of 10 to 15 digits only: 9 digits is not on WhatsApp.
    const unknown = await send(server, token, { number: "123456789", body: "x", openTicket: 0 });
    assert.deepEqual([unknown.status, unknown.body.error], [400, "ERR_WAPP_INVALID_CONTACT"]);

    const noFiles = new FormData();
    noFiles.set("number", freshNumber());
    noFiles.set("openTicket", "0");
    const media = await send(server, token, noFiles);
    assert.deepEqual([media.status, media.body.fields], [400, { medias: "Required" }]);
  });
});

Deno.test("POST /api/messages/send with openTicket 0 keeps the message in a closed ticket, or in the active one", async () => {
  await withServer(async (server) => {
    const { token } = await demoConnection(server);
    const number = freshNumber();
    const first = await send(server, token, { number, body: "um", openTicket: 0 });
    assert.equal(first.body.ticket.status, "closed");
    const second = await send(server, token, { number, body: "dois", openTicket: "0" });
    assert.equal(second.body.ticket.id, first.body.ticket.id, "the contact's latest ticket is reused");

    const other = freshNumber();
    const inbound = await receive(server, inboundText(other, "oi"));
    const reply = await send(server, token, { number: other, body: "resposta", openTicket: 0 });
    assert.equal(reply.body.ticket.id, inbound.ticketId, "the active ticket takes the message");
    assert.equal(reply.body.ticket.status, "pending");
  });
});

Deno.test("POST /api/messages/send with the same Idempotency-Key sends once and replays the answer", async () => {
  await withServer(async (server) => {
    const { token } = await demoConnection(server);
    const admin = await server.login("admin@demo.local");
    const number = freshNumber();
    const body = { number, body: "uma vez", openTicket: 0 };
    const key = { "idempotency-key": `order-${crypto.randomUUID()}` };
    const [a, b] = await Promise.all([send(server, token, body, key), send(server, token, body, key)]);
    const c = await send(server, token, body, key);
    for (const r of [a, b, c]) assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(b.body, a.body);
    assert.deepEqual(c.body, a.body);
    assert.equal(c.headers.get("idempotent-replayed"), "true");
    const page = await admin.get(`/messages/${a.body.ticket.id}`);
    assert.equal(page.body.messages.length, 1);

    const changed = await send(server, token, { ...body, body: "outra" }, key);
    assert.deepEqual([changed.status, changed.body.error], [422, "ERR_CONFLICT"]);
    const bad = await send(server, token, body, { "idempotency-key": "has space" });
    assert.equal(bad.status, 400);

    // A key whose first request is still running elsewhere (or was cut off by a crash): 409.
    const conn = await demoConnection(server);
    const running = { "idempotency-key": "running-elsewhere" };
    await server.deps.kv.set(["api_idempotency", conn.companyId, conn.id, "running-elsewhere"], {
      state: "pending",
      fingerprint: requestFingerprint({ number, body: "uma vez", openTicket: 0 }),
    });
    const busy = await send(server, token, body, running);
    assert.deepEqual([busy.status, busy.body.error, busy.headers.get("retry-after")], [409, "ERR_CONFLICT", "2"]);
  });
});

Deno.test("POST /api/messages/send limits each token's rate: 429 with Retry-After", async () => {
  await withServer(async (server) => {
    const { token } = await demoConnection(server);
    setExternalApiRate(server.deps, { perSecond: 0.5, burst: 2 });
    const number = freshNumber();
    for (let i = 0; i < 2; i++) {
      assert.equal((await send(server, token, { number, body: `m${i}`, openTicket: 0 })).status, 200);
    }
    const limited = await send(server, token, { number, body: "m2", openTicket: 0 });
    assert.equal(limited.status, 429);
    assert.equal(limited.body.error, "ERR_TOO_MANY_ATTEMPTS");
    assert.equal(limited.headers.get("retry-after"), "2");
  });
});

Deno.test("POST /api/messages/send needs the plan flag useExternalApi (403 with the upgrade text)", async () => {
  await withServer(async (server) => {
    const { token } = await demoConnection(server);
    const owner = await server.login("super@balcao.local");
    const off = await owner.put(`/plans/${server.demo!.planId}`, { useExternalApi: false });
    assert.equal(off.status, 200, JSON.stringify(off.body));
    const refused = await send(server, token, { number: freshNumber(), body: "x", openTicket: 0 });
    assert.equal(refused.status, 403);
    assert.deepEqual([refused.body.error, refused.body.message], ["ERR_PLAN_FEATURE", UPGRADE_TEXT]);
  });
});

Deno.test("POST /api/messages/send refuses a company past its subscription's grace (402)", async () => {
  await withServer(async (server) => {
    const { token } = await demoConnection(server);
    const companyId = server.demo!.companyId;
    await companies.in(server.deps.system, PLATFORM).update(companyId, (old) => ({ ...old, dueDate: Date.now() - 30 * 86_400_000 }), () => new Error("gone"));
    const refused = await send(server, token, { number: freshNumber(), body: "x", openTicket: 0 });
    assert.deepEqual([refused.status, refused.body.error], [402, "ERR_SUBSCRIPTION_EXPIRED"]);
  });
});

Deno.test("POST /api/messages/send as multipart sends each media with its caption", async () => {
  await withServer(async (server) => {
    const conn = await demoConnection(server);
    const admin = await server.login("admin@demo.local");
    const number = freshNumber();
    const form = new FormData();
    form.set("number", number);
    form.set("openTicket", "0");
    form.append("medias", new File([new Uint8Array([137, 80, 78, 71])], "foto.png", { type: "image/png" }));
    form.append("caption", "a foto");
    form.append("medias", new File(["%PDF-1.4"], "contrato.pdf", { type: "application/pdf" }));
    form.append("caption", "o contrato");
    const sent = await send(server, conn.token, form);
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    assert.deepEqual(sent.body.messages.map((m: { body: string; mediaType: string }) => [m.body, m.mediaType]), [
      ["a foto", "image"],
      ["o contrato", "application"],
    ]);
    const page = await admin.get(`/messages/${sent.body.ticket.id}`);
    assert.deepEqual(page.body.messages.map((m: { body: string; mediaUrl: string | null }) => [m.body, !!m.mediaUrl]), [
      ["a foto", true],
      ["o contrato", true],
    ]);
    const phone = await server.deps.channels.simulator(server.demo!.companyId, conn.id);
    await eventually(() => phone.outbox.filter((e) => e.to === number).length === 2 || undefined, 10_000, "both media sent");
  });
});
