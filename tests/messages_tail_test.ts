/**
 * The newest page of a conversation comes from the ticket actor's in-memory tail
 * (actors/messages/tail.ts): it must stay exactly what KV holds across sends, edits,
 * re-activation and more messages than one page.
 */
import assert from "node:assert/strict";
import { sendSystemMessage } from "../actors/messages/mod.ts";
import { MESSAGE_PAGE_SIZE } from "../domain/message.ts";
import { demoTicket } from "./helpers/fixtures.ts";
import { type Client, withServer } from "./helpers/server.ts";

type Page = { messages: Array<{ id: string; body: string }>; count: number; hasMore: boolean };

async function page(admin: Client, ticketId: number, pageNumber = 1): Promise<Page> {
  const r = await admin.get(`/messages/${ticketId}?pageNumber=${pageNumber}`);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body as Page;
}

/**
 * The page once every send has its provider's answer: the simulated connection acks
 * each send a moment later, so a page read before that would differ from a later
 * read by ack and providerId, not by anything the tail did.
 */
async function settledPage(admin: Client, ticketId: number): Promise<Page> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const p = await page(admin, ticketId);
    const pending = (p.messages as Array<{ fromMe?: boolean; providerId?: string | null }>)
      .filter((m) => m.fromMe && !m.providerId);
    if (pending.length === 0) return p;
    assert.ok(Date.now() < deadline, `${pending.length} sends never got their provider id`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

Deno.test("GET /messages/{ticketId} page 1 from the actor's tail matches KV across sends, edits and re-activation", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const companyId = server.demo!.companyId;
    const ticket = await demoTicket(server, "5511955551234", { name: "Cliente Cauda" });
    const before = await page(admin, ticket.id); // loads the tail
    const first = before.count;

    const total = MESSAGE_PAGE_SIZE + 5;
    for (let i = first; i < total; i++) await sendSystemMessage(server.deps, companyId, ticket.id, `m${i}`);
    const warm = await page(admin, ticket.id);
    assert.equal(warm.count, total);
    assert.equal(warm.hasMore, true);
    assert.equal(warm.messages.length, MESSAGE_PAGE_SIZE);
    assert.equal(warm.messages.at(-1)!.body, `m${total - 1}`);

    const edited = warm.messages.at(-2)!;
    const r = await admin.post(`/messages/edit/${edited.id}`, { body: "corrigido" });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const afterEdit = await settledPage(admin, ticket.id);
    assert.equal(afterEdit.messages.find((m) => m.id === edited.id)!.body, "corrigido");

    // A fresh activation reads the same page from KV: the tail held nothing KV lacks.
    server.deps.system.passivateAll();
    const cold = await page(admin, ticket.id);
    assert.deepEqual(cold, afterEdit);

    // Page 2 (from KV) continues exactly where the tail's page stops.
    const older = await page(admin, ticket.id, 2);
    assert.equal(older.messages.length, total - MESSAGE_PAGE_SIZE);
    assert.equal(older.hasMore, false);
    assert.ok(older.messages.at(-1)!.id < cold.messages[0].id);
  });
});
