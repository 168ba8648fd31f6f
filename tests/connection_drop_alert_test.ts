/**
 * A dropped number is noticed (issue #40): a connection that leaves CONNECTED and stays away
 * past the grace period tells its company's admins once (a live event for the bell and the
 * toast, GET /connection-alerts, one e-mail each), however many reconnect attempts follow;
 * the audit log and the metrics record it; a reconnect clears it. A drop shorter than the
 * grace period tells nobody. Driven through the simulator's phone going offline.
 */
import assert from "node:assert/strict";
import { demoConnection, eventually } from "./helpers/channels.ts";
import { startMailbox } from "./helpers/mailbox.ts";
import { scrape } from "./helpers/prometheus.ts";
import { withServer } from "./helpers/server.ts";
import { WsClient } from "./helpers/ws.ts";
import { timerKey } from "../actors/_runtime/timers.ts";
import { connectionAlertKey } from "../actors/sessions/alerts.ts";

const TOKEN = "drops-scrape";

Deno.test("a connection down past the grace period tells its admins once, and a reconnect clears it", async () => {
  const mailbox = await startMailbox();
  try {
    await withServer(async (server) => {
      const companyId = server.demo!.companyId;
      const owner = await server.login("super@balcao.local");
      await mailbox.useFor(owner);
      const admin = await server.login("admin@demo.local");
      const agent = await server.login("agent@demo.local");
      const demo = await demoConnection(admin);
      const channel = `company-${companyId}-connectionAlert`;
      const adminSocket = new WsClient(server.url, { token: admin.token });
      const agentSocket = new WsClient(server.url, { token: agent.token });
      await Promise.all([adminSocket.hello(), agentSocket.hello()]);
      const alertEvents = () => adminSocket.eventsOn(channel).map((e) => e.data as { action: string; alert: Record<string, unknown> });

      assert.equal((await admin.post(`/simulator/${demo.id}/disconnect`)).status, 200);
      const created = await adminSocket.event(channel, (d) => d.action === "create");
      const alert = (created.data as { alert: Record<string, unknown> }).alert;
      assert.deepEqual([alert.whatsappId, alert.name, alert.provider, alert.restoredAt], [demo.id, "WhatsApp Demo", "simulator", null]);
      assert.ok(Date.parse(String(alert.notifiedAt)) - Date.parse(String(alert.droppedAt)) >= 300, "told after the grace period");

      const listed = await admin.get("/connection-alerts");
      assert.equal(listed.status, 200);
      assert.deepEqual(listed.body.alerts.map((a: { whatsappId: number }) => a.whatsappId), [demo.id]);
      const mail = await mailbox.next();
      assert.equal(mail.subject, "WhatsApp desconectado: WhatsApp Demo");
      assert.deepEqual((mail.to as { value: { address: string }[] }).value.map((v) => v.address), ["admin@demo.local"]);
      assert.match(mail.text ?? "", /WhatsApp Demo/);

      // The phone stays offline: reconnect attempts go on, and tell nobody again.
      await eventually(async () => (await admin.get(`/whatsapp/${demo.id}`)).body.retries >= 2 || undefined, 15_000, "a second reconnect attempt");
      await eventually(async () => {
        const audit = (await admin.get("/audit-log?action=connection.dropped")).body.records;
        return audit.length === 1 ? audit : undefined;
      }, 5000, "the audit entry");
      const during = await scrape(server.url, TOKEN);
      assert.equal(during.value("balcao_whatsapp_drops_total", { channel: "simulator" }), 1);
      assert.equal(during.value("balcao_whatsapp_sessions_dropped"), 1);
      assert.equal(during.value("balcao_whatsapp_sessions", { status: "CONNECTED" }), 0);
      assert.equal(alertEvents().filter((e) => e.action === "create").length, 1);
      assert.equal(mailbox.received.length, 1);
      assert.equal(agentSocket.eventsOn(channel).length, 0, "alerts go to admins only");
      assert.equal((await agent.get("/connection-alerts")).status, 403);

      // The phone is back: the alert is cleared and says since when it was down.
      assert.equal((await admin.post(`/simulator/${demo.id}/scan`)).status, 200);
      const restored = await adminSocket.event(channel, (d) => d.action === "update");
      assert.ok((restored.data as { alert: { restoredAt: string | null } }).alert.restoredAt);
      assert.deepEqual((await admin.get("/connection-alerts")).body.alerts, []);
      await eventually(async () => (await admin.get("/audit-log?action=connection.restored")).body.records.length === 1 || undefined, 5000, "the restored entry");
      const after = await scrape(server.url, TOKEN);
      assert.equal(after.value("balcao_whatsapp_sessions_dropped"), 0);
      assert.equal(after.value("balcao_whatsapp_drops_total", { channel: "simulator" }), 1);
      const timer = await server.deps.kv.get(timerKey("session", `${companyId}:${demo.id}`, "dropAlert"));
      assert.equal(timer.value, null, "no drop timer left armed");

      // The platform owner sees it (restored, with the company's name); an admin may not ask for all.
      const all = await owner.get("/connection-alerts?all=true");
      assert.equal(all.status, 200);
      const mine = all.body.alerts.find((a: { companyId: number }) => a.companyId === companyId);
      assert.equal(mine.companyName, "Demo");
      assert.ok(mine.restoredAt);
      assert.equal((await admin.get("/connection-alerts?all=true")).status, 403);
      assert.equal(alertEvents().filter((e) => e.action === "create").length, 1);
      assert.equal(mailbox.received.length, 1, "one e-mail for the whole drop");
      await Promise.all([adminSocket.close(), agentSocket.close()]);
    }, { sessionDropGraceMs: 300, metricsToken: TOKEN });
  } finally {
    await mailbox.close();
  }
});

Deno.test("a drop shorter than the grace period tells nobody: the reconnect disarms the timer", async () => {
  await withServer(async (server) => {
    const companyId = server.demo!.companyId;
    const admin = await server.login("admin@demo.local");
    const demo = await demoConnection(admin);
    const key = timerKey("session", `${companyId}:${demo.id}`, "dropAlert");
    await admin.post(`/simulator/${demo.id}/disconnect`);
    await eventually(async () => (await server.deps.kv.get(key)).value ? true : undefined, 5000, "the drop timer");
    await admin.post(`/simulator/${demo.id}/scan`);
    await eventually(async () => (await admin.get(`/whatsapp/${demo.id}`)).body.status === "CONNECTED" || undefined);
    await eventually(async () => (await server.deps.kv.get(key)).value === null || undefined, 5000, "the timer disarmed");
    assert.equal((await server.deps.kv.get(connectionAlertKey(companyId, demo.id))).value, null);
    assert.deepEqual((await admin.get("/connection-alerts")).body.alerts, []);
  }, { sessionDropGraceMs: 60_000 });
});

Deno.test("a deleted connection's alert goes with it, and an admin's stop ends one", async () => {
  await withServer(async (server) => {
    const companyId = server.demo!.companyId;
    const owner = await server.login("super@balcao.local");
    const admin = await server.login("admin@demo.local");
    const demo = await demoConnection(admin);
    const second = await admin.post("/whatsapp", { name: "Segunda linha", provider: "simulator" });
    assert.equal(second.status, 200, JSON.stringify(second.body));
    const id: number = second.body.id;
    assert.equal((await admin.post(`/simulator/${id}/scan`)).status, 200);
    await eventually(async () => (await admin.get(`/whatsapp/${id}`)).body.status === "CONNECTED" || undefined, 5000, "the second line");

    for (const whatsappId of [demo.id, id]) await admin.post(`/simulator/${whatsappId}/disconnect`);
    await eventually(async () => (await admin.get("/connection-alerts")).body.alerts.length === 2 || undefined, 5000, "both alerts");

    // Deleted: no alert, no timer, nothing on the owner's page.
    assert.equal((await owner.delete(`/whatsapp/${id}?companyId=${companyId}`)).status, 200);
    assert.equal((await server.deps.kv.get(connectionAlertKey(companyId, id))).value, null);
    const all = (await owner.get("/connection-alerts?all=true")).body.alerts as Array<{ whatsappId: number; companyId: number }>;
    assert.deepEqual(all.filter((a) => a.companyId === companyId).map((a) => a.whatsappId), [demo.id]);

    // Stopped on purpose by an admin: the alert ends (restored), nothing is armed.
    assert.equal((await admin.delete(`/whatsappsession/${demo.id}`, { lib: "baileys" })).status, 200);
    await eventually(async () => (await admin.get("/connection-alerts")).body.alerts.length === 0 || undefined, 5000, "the stop to end it");
    assert.equal((await server.deps.kv.get(timerKey("session", `${companyId}:${demo.id}`, "dropAlert"))).value, null);
  }, { sessionDropGraceMs: 200 });
});
