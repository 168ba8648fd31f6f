/** Session actions and lifecycle: logout, new QR, restart of all, reconnect timer, resume after restart. */
import assert from "node:assert/strict";
import { startTestServer, withServer } from "./helpers/server.ts";
import { demoConnection, eventually, nextEvent, sessionEvents } from "./helpers/channels.ts";
import { createTenant } from "./helpers/tenants.ts";

const statusOf = async (admin: { get(p: string): Promise<{ body: { status: string } }> }, id: number) =>
  (await admin.get(`/whatsapp/${id}`)).body.status;

Deno.test("DELETE /whatsappsession/{id} logs out; POST /whatsappsession/{id} then shows a QR", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const demo = await demoConnection(admin);
    const out = await admin.delete(`/whatsappsession/${demo.id}`, { lib: "baileys" });
    assert.equal(out.status, 200, JSON.stringify(out.body));
    assert.equal(await statusOf(admin, demo.id), "DISCONNECTED");
    const again = await admin.post(`/whatsappsession/${demo.id}`);
    assert.equal(again.status, 200);
    assert.equal(again.body.whatsapp.status, "qrcode");
    assert.match(again.body.whatsapp.qrcode, /balcao-simulator/);
    const agent = await server.login("agent@demo.local");
    assert.equal((await agent.post(`/whatsappsession/${demo.id}`)).status, 403);
    assert.equal((await admin.post("/whatsappsession/999")).status, 404);
  });
});

Deno.test("PUT /whatsappsession/{id} drops the pairing and publishes the new QR", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const demo = await demoConnection(admin);
    const qrEvent = nextEvent(server, (e) =>
      e.channel === `company-${server.demo!.companyId}-whatsappSession` &&
      (e.data as { session: { status: string } }).session.status === "qrcode");
    const r = await admin.put(`/whatsappsession/${demo.id}`);
    assert.equal(r.status, 200);
    const event = await qrEvent;
    const data = event.data as { action: string; session: Record<string, unknown> };
    assert.equal(data.action, "update");
    assert.equal(data.session.id, demo.id);
    assert.match(String(data.session.qrcode), /balcao-simulator/);
    for (const key of ["status", "qrcode", "qrcodeEvo", "retries", "updatedAt"]) assert.ok(key in data.session, key);
    assert.deepEqual(event.scope, { kind: "admins" }, "the QR codes go to admins only");
  });
});

Deno.test("POST /whatsapp-restart/ restarts every connection of the company", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const demo = await demoConnection(admin);
    const watch = sessionEvents(server, demo.id);
    const r = await admin.post("/whatsapp-restart/");
    assert.equal(r.status, 200);
    assert.equal(await statusOf(admin, demo.id), "CONNECTED");
    assert.deepEqual(watch.events.map((e) => (e.session as { status: string }).status), ["OPENING", "CONNECTED"]);
    watch.stop();
  });
});

Deno.test("session actor: a dropped session is retried by its reconnect timer with growing retries", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const demo = await demoConnection(admin);
    await admin.post(`/simulator/${demo.id}/disconnect`);
    // The phone stays offline: the timer's attempt fails and the next one is armed.
    const retried = await eventually(async () => {
      const w = (await admin.get(`/whatsapp/${demo.id}`)).body;
      return w.retries >= 2 ? w : undefined;
    }, 15_000, "second reconnect attempt");
    assert.equal(retried.status, "DISCONNECTED");
    await admin.post(`/simulator/${demo.id}/scan`);
    await eventually(async () => (await statusOf(admin, demo.id)) === "CONNECTED" ? true : undefined);
    assert.equal((await admin.get(`/whatsapp/${demo.id}`)).body.retries, 0);
  });
});

Deno.test("startServer() resumes a CONNECTED session after a restart without a new QR", async () => {
  const dir = await Deno.makeTempDir({ prefix: "balcao-resume-" });
  const kvPath = `${dir}/store.kv`;
  let first = await startTestServer({ kvPath });
  let demoId: number;
  try {
    const admin = await first.login("admin@demo.local");
    demoId = (await demoConnection(admin)).id;
    await admin.post(`/simulator/${demoId}/inbound`, { from: "5511987659999", name: "Antes", body: "antes do restart" });
  } finally {
    await first.close();
  }
  first = await startTestServer({ kvPath, demo: false });
  try {
    const admin = await first.login("admin@demo.local");
    const w = (await admin.get(`/whatsapp/${demoId}`)).body;
    assert.equal(w.status, "CONNECTED");
    assert.equal(w.qrcode, "");
    const sent = await admin.post(`/simulator/${demoId}/inbound`, { from: "5511987659999", name: "Depois", body: "depois" });
    assert.equal(sent.body.queued, false);
  } finally {
    await first.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("outbound: a send still queued when the server stops is sent after the restart", async () => {
  const dir = await Deno.makeTempDir({ prefix: "balcao-outbox-" });
  const kvPath = `${dir}/store.kv`;
  let server = await startTestServer({ kvPath });
  let demoId = 0;
  let ticketId = 0;
  try {
    const admin = await server.login("admin@demo.local");
    demoId = (await demoConnection(admin)).id;
    await admin.post(`/simulator/${demoId}/inbound`, { from: "5511987658888", name: "Fila", body: "oi" });
    ticketId = await eventually(async () => {
      const list = (await admin.get("/tickets?showAll=true&limit=1000")).body.tickets as Array<{ id: number; contact?: { number: string } }>;
      return list.find((t) => t.contact?.number === "5511987658888")?.id;
    });
    await server.deps.channels.get(server.demo!.companyId, demoId)!.drained();
    const adminId = server.demo!.logins.find((l) => l.email === "admin@demo.local")!.id;
    await admin.put(`/tickets/${ticketId}`, { status: "open", userId: adminId });
    server.deps.channels.configure({ retryDelays: [1000, 1000] });
    await admin.post(`/simulator/${demoId}/fail`, { count: 1 });
    assert.equal((await admin.post(`/messages/${ticketId}`, { body: "sobrevive ao restart" })).status, 200);
  } finally {
    await server.close();
  }
  server = await startTestServer({ kvPath, demo: false });
  try {
    const admin = await server.login("admin@demo.local");
    const sent = await eventually(async () => {
      const box = (await admin.get(`/simulator/${demoId}/outbox`)).body.messages as Array<{ body: string; id: string }>;
      return box.find((m) => m.body.includes("sobrevive ao restart"));
    }, 10_000, "replayed send");
    await eventually(async () => {
      const page = (await admin.get(`/messages/${ticketId}`)).body;
      const m = page.messages.find((x: { body: string }) => x.body.includes("sobrevive ao restart"));
      return m?.providerId === sent.id || m?.ack >= 1 ? m : undefined;
    }, 10_000, "provider id recorded");
    const left = await Array.fromAsync(server.deps.kv.list({ prefix: ["outbox"] }));
    assert.equal(left.length, 0);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("session actions: supervisors are refused, another company's connection is not found, lib is checked", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const demo = await demoConnection(admin);
    const supervisor = await server.login("supervisor@demo.local");
    assert.equal((await supervisor.post(`/whatsappsession/${demo.id}`)).status, 403);
    assert.equal((await supervisor.put(`/whatsappsession/${demo.id}`)).status, 403);
    assert.equal((await supervisor.delete(`/whatsappsession/${demo.id}`, { lib: "baileys" })).status, 403);
    assert.equal((await supervisor.post("/whatsapp-restart/")).status, 403);
    const other = await createTenant(server, "Outra Loja");
    for (const r of [
      await other.admin.post(`/whatsappsession/${demo.id}`),
      await other.admin.put(`/whatsappsession/${demo.id}`),
      await other.admin.delete(`/whatsappsession/${demo.id}`, { lib: "baileys" }),
    ]) {
      assert.equal(r.status, 404);
      assert.equal(r.body.error, "ERR_NO_WAPP_FOUND");
    }
    const bad = await admin.delete(`/whatsappsession/${demo.id}`, { lib: "telegram" });
    assert.equal(bad.status, 400);
    assert.ok(bad.body.fields.lib);
    assert.equal(await statusOf(admin, demo.id), "CONNECTED", "neither refusal touched the session");
  });
});
