/**
 * A connection's QR code pairs a phone to the company's number, so only those who may pair
 * it (admins: connections-page:actionButtons) ever read it: over HTTP and over the socket.
 * Everyone else gets the same changes with the codes blanked.
 */
import assert from "node:assert/strict";
import { withSockets } from "./helpers/ws.ts";
import { demoConnection } from "./helpers/channels.ts";

Deno.test("QR codes reach admins only: GET /whatsapp, and the whatsappSession and whatsapp events", async () => {
  await withSockets(async (server, pool) => {
    const admin = await server.login("admin@demo.local");
    const supervisor = await server.login("supervisor@demo.local");
    const agent = await server.login("agent@demo.local");
    const demo = await demoConnection(admin);
    const sockets = {
      admin: await pool.connect(admin.token!),
      supervisor: await pool.connect(supervisor.token!),
      agent: await pool.connect(agent.token!),
    };
    const company = server.demo!.companyId;
    const session = `company-${company}-whatsappSession`;
    const waiting = (data: Record<string, unknown>) => (data.session as { status: string }).status === "qrcode";
    const seen = Object.fromEntries(Object.entries(sockets).map(([who, ws]) => [who, ws.event(session, waiting)]));
    const changed = Object.fromEntries(
      Object.entries(sockets).map(([who, ws]) => [who, ws.event(`company-${company}-whatsapp`, (d) => (d.whatsapp as { status: string })?.status === "qrcode")]),
    );
    assert.equal((await admin.put(`/whatsappsession/${demo.id}`)).status, 200);

    const qrOf = async (p: Promise<{ data: unknown }>, key: "session" | "whatsapp") =>
      String(((await p).data as Record<string, { qrcode: string }>)[key].qrcode);
    assert.match(await qrOf(seen.admin, "session"), /balcao-simulator/);
    assert.equal(await qrOf(seen.supervisor, "session"), "");
    assert.equal(await qrOf(seen.agent, "session"), "");
    assert.match(await qrOf(changed.admin, "whatsapp"), /balcao-simulator/);
    assert.equal(await qrOf(changed.supervisor, "whatsapp"), "");
    assert.equal(await qrOf(changed.agent, "whatsapp"), "");
    for (const ws of Object.values(sockets)) {
      assert.equal(ws.eventsOn(session).filter((f) => waiting(f.data as Record<string, unknown>)).length, 1, "one event per socket");
    }

    const listed = async (client: typeof admin) =>
      (await client.get("/whatsapp")).body.find((w: { id: number }) => w.id === demo.id).qrcode as string;
    assert.match(await listed(admin), /balcao-simulator/);
    assert.equal(await listed(supervisor), "");
    assert.equal(await listed(agent), "");
    assert.equal((await agent.get(`/whatsapp/${demo.id}`)).body.qrcode, "");
    assert.match((await admin.get(`/whatsapp/${demo.id}`)).body.qrcode, /balcao-simulator/);
  });
});
