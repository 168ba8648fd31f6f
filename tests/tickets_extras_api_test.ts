/**
 * Server pieces of the tickets screen's extras (issue #6): the tracking notes a ticket's
 * transitions leave (GET /tickets/{id}/tracking and the live `tracking` message event), the
 * rule that picks the note (trackingAction), and GET /contacts/photo asking the connection
 * for a fresh picture before falling back to the stored one.
 */
import assert from "node:assert/strict";
import { findOrCreateContact } from "../actors/contacts/mod.ts";
import { ticketTrackingPrefix } from "../actors/ticket_tracking/mod.ts";
import { trackingAction } from "../domain/ticket_tracking.ts";
import { demoConnection, nextEvent } from "./helpers/channels.ts";
import { demoTicket } from "./helpers/fixtures.ts";
import { withServer } from "./helpers/server.ts";

Deno.test("trackingAction() names accept, transfer, return, close and reopen from the change and its commands, and nothing for other changes", () => {
  const t = (status: "open" | "pending" | "closed", queueId: number | null, userId: number | null) => ({ status, queueId, userId });
  assert.equal(trackingAction(t("pending", 1, null), t("open", 1, 7), 7), "accept");
  assert.equal(trackingAction(t("pending", 1, null), t("open", 1, 8), 7), "transfer");
  assert.equal(trackingAction(t("open", 1, 7), t("pending", 2, null), 7), "transfer");
  assert.equal(trackingAction(t("open", 1, 7), t("open", 1, 8), 7), "transfer");
  assert.equal(trackingAction(t("open", 1, 7), t("pending", 1, null), 7), "return");
  assert.equal(trackingAction(t("open", 1, 7), t("pending", 1, null), 7, ["return"]), "return");
  // A transfer to the ticket's own queue without a user looks like a return, but was a transfer.
  assert.equal(trackingAction(t("open", 1, 7), t("pending", 1, null), 7, ["transfer"]), "transfer");
  assert.equal(trackingAction(t("open", 1, 7), t("open", 1, 7), 7, ["transfer"]), null);
  assert.equal(trackingAction(t("open", 1, 7), t("closed", 1, 7), 7), "close");
  assert.equal(trackingAction(t("pending", 1, null), t("closed", 1, 7), 7), "close");
  assert.equal(trackingAction(t("closed", 1, 7), t("open", 1, 7), 7), "reopen");
  assert.equal(trackingAction(t("open", 1, 7), t("open", 1, 7), 7), null);
  assert.equal(trackingAction(t("closed", 1, 7), t("closed", 1, 7), 7), null);
});

Deno.test("PUT /tickets/{id} transitions leave tracking notes with names, listed by GET /tickets/{id}/tracking and published live", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const [, sales] = server.demo!.queueIds;
    const adminId = server.demo!.logins.find((l) => l.email === "admin@demo.local")!.id;
    const agentId = server.demo!.logins.find((l) => l.email === "agent@demo.local")!.id;
    const ticket = await demoTicket(server, "5511955550001", { name: "Cliente Rastreio" });

    const live = nextEvent(server, (e) => (e.data as { action?: string }).action === "tracking");
    assert.equal((await admin.put(`/tickets/${ticket.id}`, { status: "open", userId: adminId })).status, 200);
    const event = await live;
    assert.equal(event.channel, `company-${server.demo!.companyId}-appMessage`);
    assert.equal(event.scope.kind, "ticket");
    const data = event.data as { tracking: { action: string; byUserName: string }; ticket: { id: number } };
    assert.equal(data.ticket.id, ticket.id);
    assert.equal(data.tracking.action, "accept");

    assert.equal((await admin.put(`/tickets/${ticket.id}`, { queueId: sales, userId: agentId, status: "open" })).status, 200);
    assert.equal((await admin.put(`/tickets/${ticket.id}`, { queueId: sales, userId: null, status: "pending" })).status, 200);
    assert.equal((await admin.put(`/tickets/${ticket.id}`, { status: "open", userId: adminId })).status, 200);
    assert.equal((await admin.put(`/tickets/${ticket.id}`, { status: "pending", userId: null, return: true })).status, 200);
    assert.equal((await admin.put(`/tickets/${ticket.id}`, { status: "closed", userId: adminId })).status, 200);
    assert.equal((await admin.put(`/tickets/${ticket.id}`, { status: "open", userId: adminId })).status, 200);
    // Marking as unread is no transition: no note.
    assert.equal((await admin.put(`/tickets/${ticket.id}`, { unreadMessages: 1 })).status, 200);

    const r = await admin.get(`/tickets/${ticket.id}/tracking`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const notes = r.body.tracking as Array<Record<string, unknown>>;
    assert.deepEqual(notes.map((n) => n.action), ["accept", "transfer", "transfer", "accept", "return", "close", "reopen"]);
    assert.deepEqual(
      { queueName: notes[1].queueName, userName: notes[1].userName, byUserName: notes[1].byUserName },
      { queueName: "Vendas", userName: "Alice Atendente", byUserName: "Ana Admin" },
      JSON.stringify(notes[1]),
    );
    assert.equal(notes[2].userName, null);
    assert.ok(notes.every((n) => n.ticketId === ticket.id && typeof n.createdAt === "string"));
    const ids = notes.map((n) => n.id as string);
    assert.deepEqual([...ids].sort(), ids, "ids sort by time");
  });
});

Deno.test("DELETE /tickets/{id} deletes the ticket's tracking notes with it", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const adminId = server.demo!.logins.find((l) => l.email === "admin@demo.local")!.id;
    const ticket = await demoTicket(server, "5511955550007", { name: "Cliente Apagado" });
    const kept = await demoTicket(server, "5511955550008", { name: "Cliente Mantido" });
    for (const t of [ticket, kept]) {
      assert.equal((await admin.put(`/tickets/${t.id}`, { status: "open", userId: adminId })).status, 200);
      assert.equal((await admin.put(`/tickets/${t.id}`, { status: "closed", userId: adminId })).status, 200);
    }
    const count = async (id: number) =>
      (await Array.fromAsync(server.deps.kv.list({ prefix: ticketTrackingPrefix(server.demo!.companyId, id) }))).length;
    assert.equal(await count(ticket.id), 2);
    assert.equal((await admin.delete(`/tickets/${ticket.id}`)).status, 200);
    assert.equal(await count(ticket.id), 0);
    assert.equal(await count(kept.id), 2, "another ticket's notes stay");
  });
});

Deno.test("GET /tickets/{id}/tracking follows the message reading rule: 403 for a ticket a plain user cannot see, 404 for none", async () => {
  await withServer(async (server) => {
    const [, sales] = server.demo!.queueIds;
    const agent = await server.login("agent@demo.local");
    const hidden = await demoTicket(server, "5511955550002", { queueId: sales });
    assert.equal((await agent.get(`/tickets/${hidden.id}/tracking`)).status, 403);
    assert.equal((await agent.get(`/tickets/999999/tracking`)).status, 404);
    const own = await demoTicket(server, "5511955550003");
    const r = await agent.get(`/tickets/${own.id}/tracking`);
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, { tracking: [] });
  });
});

Deno.test("GET /contacts/photo asks the connection for the picture and falls back to the stored profilePicUrl", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const companyId = server.demo!.companyId;
    const conn = await demoConnection(admin);
    await findOrCreateContact(server.deps.system, companyId, {
      number: "5511955550004",
      name: "Com Foto",
      isGroup: false,
      profilePicUrl: "https://pics.example/stored.jpg",
    });

    // The simulator has no pictures: the stored one answers.
    const stored = await admin.get("/contacts/photo?number=5511955550004");
    assert.equal(stored.status, 200);
    assert.deepEqual(stored.body, { profilePicUrl: "https://pics.example/stored.jpg" });

    const phone = await server.deps.channels.simulator(companyId, conn.id);
    const asked: string[] = [];
    // The simulator's phone has no pictures; this one answers like a real connection would.
    const withPictures = phone as unknown as { profilePicture(number: string): Promise<string | null> };
    withPictures.profilePicture = (number: string) => {
      asked.push(number);
      return Promise.resolve(`https://pics.example/${number}-full.jpg`);
    };
    const fresh = await admin.get(`/contacts/photo?number=5511955550004&whatsappId=${conn.id}`);
    assert.deepEqual(fresh.body, { profilePicUrl: "https://pics.example/5511955550004-full.jpg" });
    const byDefault = await admin.get("/contacts/photo?number=5511955550005");
    assert.deepEqual(byDefault.body, { profilePicUrl: "https://pics.example/5511955550005-full.jpg" });
    assert.deepEqual(asked, ["5511955550004", "5511955550005"]);

    // An unknown connection is no error: the stored picture (or "") answers.
    const unknown = await admin.get("/contacts/photo?number=5511955550006&whatsappId=999");
    assert.deepEqual(unknown.body, { profilePicUrl: "" });
  });
});
