/** Ticket notes over real HTTP: validation, author shown, delete rules, isolation. */
import assert from "node:assert/strict";
import { demoTicket } from "./helpers/fixtures.ts";
import { withServer } from "./helpers/server.ts";

Deno.test("POST /ticket-notes validates and GET /ticket-notes/list shows notes with their user", async () => {
  await withServer(async (server) => {
    const agent = await server.login("agent@demo.local");
    const admin = await server.login("admin@demo.local");
    const ticket = await demoTicket(server, "5511944443333", { name: "Nota" });
    const short = await agent.post("/ticket-notes", {
      note: "x",
      ticketId: ticket.id,
      contactId: ticket.contactId,
    });
    assert.equal(short.status, 400);
    assert.equal(short.body.fields.note, "Too Short!");
    const missing = await agent.post("/ticket-notes", {
      ticketId: ticket.id,
      contactId: ticket.contactId,
    });
    assert.equal(missing.body.fields.note, "Required");
    const first = await agent.post("/ticket-notes", {
      note: "Cliente ligou",
      ticketId: ticket.id,
      contactId: ticket.contactId,
    });
    assert.equal(first.status, 200);
    assert.equal(first.body.user.name, "Alice Atendente");
    await admin.post("/ticket-notes", {
      note: "Retornar amanhã",
      ticketId: ticket.id,
      contactId: ticket.contactId,
    });
    const list = await agent.get(
      `/ticket-notes/list?ticketId=${ticket.id}&contactId=${ticket.contactId}`,
    );
    assert.equal(list.status, 200);
    assert.deepEqual(list.body.map((n: { note: string }) => n.note), [
      "Retornar amanhã",
      "Cliente ligou",
    ]);
    assert.equal(list.body[0].user.name, "Ana Admin");
    assert.equal(
      (await agent.post("/ticket-notes", {
        note: "ok ok",
        ticketId: 9999,
        contactId: ticket.contactId,
      })).status,
      404,
    );
    const wrongContact = await agent.post("/ticket-notes", {
      note: "ok ok",
      ticketId: ticket.id,
      contactId: 9999,
    });
    assert.equal(wrongContact.status, 404);
  });
});

Deno.test("DELETE /ticket-notes/{id}: the author or a manager", async () => {
  await withServer(async (server) => {
    const agent = await server.login("agent@demo.local");
    const supervisor = await server.login("supervisor@demo.local");
    const ticket = await demoTicket(server, "5511944442222", { name: "Nota" });
    const body = { ticketId: ticket.id, contactId: ticket.contactId };
    const bySupervisor =
      (await supervisor.post("/ticket-notes", { note: "Do supervisor", ...body })).body;
    const byAgent = (await agent.post("/ticket-notes", { note: "Da atendente", ...body })).body;
    assert.equal((await agent.delete(`/ticket-notes/${bySupervisor.id}`)).status, 403);
    assert.equal((await agent.delete(`/ticket-notes/${byAgent.id}`)).status, 200);
    assert.equal((await supervisor.delete(`/ticket-notes/${bySupervisor.id}`)).status, 200);
    assert.equal((await supervisor.delete(`/ticket-notes/${bySupervisor.id}`)).status, 404);
    assert.equal((await agent.get(`/ticket-notes/list?ticketId=${ticket.id}`)).body.length, 0);
  });
});

Deno.test("ticket notes of another company are out of reach", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const outsider = await server.login("super@balcao.local");
    const ticket = await demoTicket(server, "5511944441111", { name: "Nota" });
    const note = (await admin.post("/ticket-notes", {
      note: "Privada",
      ticketId: ticket.id,
      contactId: ticket.contactId,
    })).body;
    assert.equal((await outsider.delete(`/ticket-notes/${note.id}`)).status, 404);
    assert.equal((await outsider.get(`/ticket-notes/list?ticketId=${ticket.id}`)).status, 404);
    const post = await outsider.post("/ticket-notes", {
      note: "Intrusa",
      ticketId: ticket.id,
      contactId: ticket.contactId,
    });
    assert.equal(post.status, 404);
  });
});

Deno.test("ticket notes of a ticket the user cannot see are refused", async () => {
  await withServer(async (server) => {
    const agent = await server.login("agent@demo.local");
    const sales = await demoTicket(server, "5511944440000", { queueId: server.demo!.queueIds[1], name: "Nota" });
    const body = { note: "Fora da minha fila", ticketId: sales.id, contactId: sales.contactId };
    assert.equal((await agent.post("/ticket-notes", body)).status, 403);
    assert.equal((await agent.get(`/ticket-notes/list?ticketId=${sales.id}`)).status, 403);
    const admin = await server.login("admin@demo.local");
    assert.equal((await admin.post("/ticket-notes", body)).status, 200);
  });
});
