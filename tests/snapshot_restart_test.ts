/**
 * The ticket desk's and the contacts' snapshots across a SIGKILL (issue #23 §3,
 * actors/_runtime/record_snapshot.ts): the real server as a child process on a file store
 * with a low snapshot threshold saves its first snapshots, tickets and contacts change after
 * them (accepted, closed, moved, deleted, created, renamed), the process is killed with no
 * shutdown code, and the restarted server, which must load the snapshots, serves exactly what
 * it served before the kill.
 */
import assert from "node:assert/strict";
import { eventually } from "./helpers/channels.ts";
import { type ChildServer, loginAt, spawnServer } from "./helpers/child_server.ts";
import type { Client } from "./helpers/server.ts";

interface Row {
  id: number;
  status: string;
  userId: number | null;
  queueId: number | null;
  lastMessage: string;
  unreadMessages: number;
  contact: { id: number; name: string; number: string };
}

/** Every ticket the admin's lists show, by id, with the fields a restart must keep. */
async function everyTicket(admin: Client): Promise<Map<number, Omit<Row, "id">>> {
  const out = new Map<number, Omit<Row, "id">>();
  for (const status of ["open", "pending", "closed"]) {
    const { body } = await admin.get(`/tickets?status=${status}&showAll=true&limit=1000`);
    for (const t of body.tickets as Row[]) {
      out.set(t.id, {
        status: t.status,
        userId: t.userId,
        queueId: t.queueId,
        lastMessage: t.lastMessage,
        unreadMessages: t.unreadMessages,
        contact: { id: t.contact.id, name: t.contact.name, number: t.contact.number },
      });
    }
  }
  return out;
}

Deno.test("tickets and contacts changed after their snapshots are all there after a SIGKILL", async () => {
  const dir = await Deno.makeTempDir({ prefix: "balcao-snapshot-restart-" });
  const start = (readyText: string) =>
    spawnServer({
      kvPath: `${dir}/store.kv`,
      dataDir: `${dir}/media`,
      readyText,
      env: { BALCAO_SNAPSHOT_MIN: "40" },
    });
  let child: ChildServer | undefined = await start("/simulator");
  try {
    const { client: admin, userId: adminId } = await loginAt(child.url);
    const conn = (await admin.get("/whatsapp")).body.find((w: { name: string }) => w.name === "WhatsApp Demo");
    const numbers = Array.from({ length: 40 }, (_, i) => `55119800${String(i).padStart(5, "0")}`);
    for (const from of numbers) {
      const sent = await admin.post(`/simulator/${conn.id}/inbound`, { from, name: `Snap ${from.slice(-3)}`, body: `Oi ${from}` });
      assert.equal(sent.status, 200, JSON.stringify(sent.body));
    }
    await eventually(() => /The tickets of company \d+: snapshot 1 saved/.test(child!.output()) || undefined, 30_000, "the tickets' first snapshot");
    await eventually(() => /The contacts of company \d+: snapshot 1 saved/.test(child!.output()) || undefined, 30_000, "the contacts' first snapshot");

    // Changes after the snapshots: each must come back from the marks.
    const ours = await eventually(async () => {
      const list = [...(await everyTicket(admin))].filter(([, t]) => numbers.includes(t.contact.number));
      return list.length === numbers.length ? list.map(([id]) => id) : undefined;
    }, 15_000, "every customer's ticket");
    // Messages after the snapshot are stored as the tickets' notes (actors/tickets/latest.ts):
    // on one ticket a later accept rewrites the whole record (unread back to 0), on one the
    // notes stay the newest (few: 40 changes would start a second snapshot).
    const noted = [ours[0], ours[30]];
    const listed = await everyTicket(admin);
    for (const id of noted) {
      const from = listed.get(id)!.contact.number;
      assert.equal((await admin.post(`/simulator/${conn.id}/inbound`, { from, body: `De novo ${id}` })).status, 200);
    }
    for (const id of ours.slice(0, 8)) {
      assert.equal((await admin.put(`/tickets/${id}`, { status: "open", userId: adminId })).status, 200);
    }
    for (const id of ours.slice(0, 4)) {
      assert.equal((await admin.put(`/tickets/${id}`, { status: "closed", sendFarewellMessage: false })).status, 200);
    }
    for (const id of ours.slice(10, 12)) assert.equal((await admin.delete(`/tickets/${id}`)).status, 200);
    const renamed = ours.slice(20, 23);
    const all = await everyTicket(admin);
    for (const id of renamed) {
      const contactId = all.get(id)!.contact.id;
      const contact = (await admin.get(`/contacts/${contactId}`)).body;
      const saved = await admin.put(`/contacts/${contactId}`, { ...contact, name: `Renomeado ${id}` });
      assert.equal(saved.status, 200, JSON.stringify(saved.body));
    }
    for (const from of ["5511987000001", "5511987000002"]) {
      assert.equal((await admin.post(`/simulator/${conn.id}/inbound`, { from, name: "Depois", body: "Cheguei depois" })).status, 200);
    }
    // Settled: the late tickets are there and the chatbot's greetings to them were sent.
    let last = new Map<number, Omit<Row, "id">>();
    const before = await eventually(async () => {
      const now = await everyTicket(admin);
      const late = [...now.values()].filter((t) => t.contact.name === "Depois").length === 2;
      const settled = late && JSON.stringify([...now]) === JSON.stringify([...last]);
      last = now;
      if (!settled) await new Promise((resolve) => setTimeout(resolve, 500));
      return settled ? now : undefined;
    }, 15_000, "the late customers' tickets, settled");

    assert.equal((await child.kill()).signal, "SIGKILL");
    child = await start("running at");
    // The changes above came back from their marks (8 changed, 2 deleted, 2 new tickets): the
    // snapshots loaded are the first ones.
    const tickets = child.output().match(/The tickets of company \d+: snapshot (\d+) loaded \(\d+ records, (\d+) read since\)/);
    assert.ok(tickets, child.output());
    assert.equal(tickets[1], "1", "no second ticket snapshot was saved before the kill");
    assert.ok(Number(tickets[2]) >= 12, `${tickets[2]} tickets read since the snapshot`);
    const contacts = child.output().match(/The contacts of company \d+: snapshot (\d+) loaded \(\d+ records, (\d+) read since\)/);
    assert.ok(contacts, child.output());
    assert.ok(Number(contacts[2]) >= 3, `${contacts[2]} contacts read since the snapshot`);
    const { client: again } = await loginAt(child.url);
    const after = await everyTicket(again);
    assert.deepEqual(after, before);
    assert.equal(after.get(ours[30])!.unreadMessages, 2);
    assert.equal(after.get(ours[0])!.unreadMessages, 0);
    for (const id of renamed) assert.equal(after.get(id)!.contact.name, `Renomeado ${id}`);
    for (const id of ours.slice(10, 12)) assert.equal((await again.get(`/tickets/${id}`)).status, 404);
  } finally {
    await child?.kill();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
});
