/**
 * The simulated phone's API (issue #37, server/api/simulator_phone.ts) over real HTTP: the
 * company's phones, a phone's chats and one customer's chat as the phone shows it (the bot's
 * menu as options, the customer's ticks following what the company read, only what reached
 * the phone), read receipts that reach the inbox as ack 4, media with its own type and name,
 * and the same admin-only, own-company rules as the rest of the simulator.
 */
import assert from "node:assert/strict";
import { withServer } from "./helpers/server.ts";
import { demoConnection, eventually } from "./helpers/channels.ts";
import { createTenant } from "./helpers/tenants.ts";
import type { PhoneThread } from "../domain/phone_view.ts";

const NUMBER = "5511966665555";
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";

Deno.test("GET /simulator/{id}/chats/{number} shows the customer's chat as their phone does; POST …/read reads it", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const conn = await demoConnection(admin);
    const phones = (await admin.get("/simulator")).body.phones;
    assert.deepEqual(phones.map((p: { id: number; connected: boolean }) => [p.id, p.connected]), [[conn.id, true]]);

    assert.equal((await admin.post(`/simulator/${conn.id}/inbound`, { from: NUMBER, name: "Cliente Fone", body: "Oi" })).status, 200);
    const thread = () => admin.get(`/simulator/${conn.id}/chats/${NUMBER}`).then((r) => r.body as PhoneThread);
    // The bot's menu arrives with its options; the customer's message waits unread (grey ticks).
    const first = await eventually(async () => {
      const t = await thread();
      return t.messages.some((m) => m.menu) ? t : undefined;
    });
    assert.equal(first.name, "Cliente Fone");
    assert.deepEqual(first.messages.map((m) => m.mine), [true, false]);
    assert.equal(first.messages[0].ack, 3);
    assert.deepEqual(first.messages[1].menu?.options.map((o) => o.id), ["1", "2"]);

    // The chat list has the customer first, then the address book.
    const chats = (await admin.get(`/simulator/${conn.id}/chats`)).body.chats as Array<{ number: string; lastAt: string | null }>;
    assert.equal(chats[0].number, NUMBER);
    assert.ok(chats.some((c) => c.number === "5511987650001" && c.lastAt === null), "the address book follows");

    // A photo keeps its type and name; the agent reads and answers; what is still queued is not shown.
    await admin.post(`/simulator/${conn.id}/inbound`, { from: NUMBER, name: "Cliente Fone", body: "1" });
    const png = await admin.post(`/simulator/${conn.id}/inbound`, {
      from: NUMBER,
      name: "Cliente Fone",
      body: "a foto",
      mediaType: "image",
      mediaBase64: PNG,
      mimetype: "image/png",
      filename: "pedido.png",
    });
    assert.equal(png.status, 200);
    const ticketId = await eventually(async () => {
      const list = (await admin.get(`/tickets?status=pending&showAll=true&searchParam=${NUMBER}`)).body.tickets as Array<{ id: number; queueId: number | null }>;
      return list.find((t) => t.queueId !== null)?.id;
    });
    await admin.put(`/tickets/${ticketId}`, { status: "open", userId: (await admin.get("/auth/me")).body.id });
    await admin.get(`/messages/${ticketId}`);
    await admin.post(`/messages/${ticketId}`, { body: "Recebi a *foto*" });
    const answered = await eventually(async () => {
      const t = await thread();
      return t.messages.some((m) => m.body.includes("Recebi a *foto*") && m.providerId) ? t : undefined;
    });
    const photo = answered.messages.find((m) => m.mediaType === "image")!;
    assert.equal(photo.mediaName, "pedido.png");
    assert.equal(photo.mimetype, "image/png");
    assert.ok(photo.mediaUrl);
    // Every customer message was read by the company: blue ticks.
    assert.ok(answered.messages.filter((m) => m.mine).every((m) => m.ack === 4));
    const reply = answered.messages.find((m) => m.body.includes("Recebi"))!;
    assert.ok(reply.ack < 4, "not read on the phone yet");

    // Read receipts: every company message of the chat, ack 4, in the inbox too.
    const read = await admin.post(`/simulator/${conn.id}/read`, { number: NUMBER });
    assert.equal(read.status, 200);
    assert.ok(read.body.read >= 3, JSON.stringify(read.body));
    await eventually(async () => {
      const messages = (await admin.get(`/messages/${ticketId}`)).body.messages as Array<{ fromMe: boolean; ack: number }>;
      return messages.filter((m) => m.fromMe).every((m) => m.ack === 4) || undefined;
    });
    assert.equal((await admin.post(`/simulator/${conn.id}/read`, { number: NUMBER })).body.read, 0);
    assert.equal((await admin.post(`/simulator/${conn.id}/read`, { number: "x" })).status, 400);
  });
});

Deno.test("the phone's chats are the admin's of its own company: a user 403, another company 404, an unknown number empty", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const conn = await demoConnection(admin);
    const agent = await server.login("agent@demo.local");
    assert.equal((await agent.get("/simulator")).status, 403);
    assert.equal((await agent.get(`/simulator/${conn.id}/chats`)).status, 403);
    const other = await createTenant(server, "Outra Empresa");
    assert.equal((await other.admin.get(`/simulator/${conn.id}/chats`)).status, 404);
    assert.equal((await other.admin.post(`/simulator/${conn.id}/read`, { number: NUMBER })).status, 404);
    assert.deepEqual((await other.admin.get("/simulator")).body, { phones: [] });
    const empty = (await admin.get(`/simulator/${conn.id}/chats/5511900000000`)).body;
    assert.deepEqual(empty, { number: "5511900000000", name: "", messages: [] });
  });
});
