/**
 * Tickets' latest-message fields across a SIGKILL on a store without a snapshot (the desk
 * lists its records and those fields, actors/tickets/latest.ts): a message stores only the
 * note it leaves on its ticket, reading a ticket too, and any other change the whole record.
 * Whichever of the two a ticket wrote last, the restarted server shows it: the newest
 * preview, and the unread counter the last change left (fields newer than their record, or a
 * record newer than its fields).
 */
import assert from "node:assert/strict";
import { type ChildServer, loginAt, spawnServer } from "./helpers/child_server.ts";
import type { Client } from "./helpers/server.ts";

interface Row {
  lastMessage: string;
  unreadMessages: number;
  status: string;
}

async function rowOf(client: Client, id: number): Promise<Row> {
  const { body } = await client.get(`/tickets/${id}`);
  return { lastMessage: body.lastMessage, unreadMessages: body.unreadMessages, status: body.status };
}

Deno.test("a ticket's latest-message fields and its record, written in either order, load as the last change left them", async () => {
  const dir = await Deno.makeTempDir({ prefix: "balcao-notes-restart-" });
  const start = (readyText: string) =>
    spawnServer({ kvPath: `${dir}/store.kv`, dataDir: `${dir}/media`, readyText });
  let child: ChildServer | undefined = await start("/simulator");
  try {
    const { client: admin, userId: adminId } = await loginAt(child.url);
    const conn = (await admin.get("/whatsapp")).body.find((w: { name: string }) => w.name === "WhatsApp Demo");
    const say = async (from: string, body: string): Promise<number> => {
      const sent = await admin.post(`/simulator/${conn.id}/inbound`, { from, name: `Notas ${from.slice(-2)}`, body });
      assert.equal(sent.status, 200, JSON.stringify(sent.body));
      for (const status of ["pending", "open", "closed"]) {
        const { body: list } = await admin.get(`/tickets?status=${status}&showAll=true&limit=1000`);
        const found = (list.tickets as { id: number; contact: { number: string } }[]).find((t) => t.contact.number === from);
        if (found) return found.id;
      }
      throw new Error(`No ticket of ${from}`);
    };
    const row = (id: number) => rowOf(admin, id);
    // Only notes after the ticket was created: two unread.
    const waiting = await say("5511986000001", "Primeira");
    await say("5511986000001", "Segunda");
    // Notes, then the whole record (accepted: nothing unread), then nothing else.
    const accepted = await say("5511986000002", "Vou ser atendido");
    assert.equal((await admin.put(`/tickets/${accepted}`, { status: "open", userId: adminId })).status, 200);
    // Accepted, then a note (the customer writes again), then read (a note again).
    const read = await say("5511986000003", "Bom dia");
    assert.equal((await admin.put(`/tickets/${read}`, { status: "open", userId: adminId })).status, 200);
    await say("5511986000003", "Ainda aí?");
    assert.equal((await row(read)).unreadMessages, 1);
    assert.equal((await admin.get(`/messages/${read}`)).status, 200);
    // Accepted, then a note, then the whole record again (closed).
    const closed = await say("5511986000004", "Obrigado");
    assert.equal((await admin.put(`/tickets/${closed}`, { status: "open", userId: adminId })).status, 200);
    await say("5511986000004", "Era só isso");
    assert.equal((await admin.put(`/tickets/${closed}`, { status: "closed", sendFarewellMessage: false })).status, 200);

    const ids = [waiting, accepted, read, closed];
    const before = await Promise.all(ids.map(row));
    assert.equal(before[0].unreadMessages, 2);
    assert.equal(before[1].unreadMessages, 0);
    assert.deepEqual(before[2], { lastMessage: "Ainda aí?", unreadMessages: 0, status: "open" });
    assert.deepEqual(before[3], { lastMessage: "Era só isso", unreadMessages: 1, status: "closed" });

    assert.equal((await child.kill()).signal, "SIGKILL");
    child = await start("running at");
    const { client: again } = await loginAt(child.url);
    const after = await Promise.all(ids.map((id) => rowOf(again, id)));
    assert.deepEqual(after, before);
  } finally {
    await child?.kill();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
});
