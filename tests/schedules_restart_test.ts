/**
 * A scheduled message survives a crash (issue #17 "done when"): the real `server/main.ts` runs
 * as a child process on a file KV, a schedule is created, the process is SIGKILLed before it
 * is due, a new process starts on the same BALCAO_KV, and the message goes out exactly once.
 */
import assert from "node:assert/strict";
import { type ChildServer, loginAt, spawnServer } from "./helpers/child_server.ts";

async function until<T>(probe: () => Promise<T | undefined>, ms: number, what: string): Promise<T> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`Timed out waiting for ${what}`);
}

Deno.test("a schedule armed before a SIGKILL goes out once after the restart on the same BALCAO_KV", async () => {
  const dir = await Deno.makeTempDir({ prefix: "schedules_restart_" });
  const kvPath = `${dir}/balcao.kv`;
  const dataDir = `${dir}/media`;
  let child: ChildServer | undefined;
  try {
    child = await spawnServer({ kvPath, dataDir });
    let admin = (await loginAt(child.url)).client;
    const contacts = await admin.get("/contacts/?searchParam=Mariana%20Souza&pageNumber=1");
    const contact = contacts.body.contacts[0];
    assert.ok(contact, "the demo's customer Mariana Souza");
    const body = `Lembrete após reinício ${crypto.randomUUID().slice(0, 6)}`;
    const dueAt = Date.now() + 4000;
    const created = await admin.post("/schedules", {
      body,
      contactId: contact.id,
      sendAt: new Date(dueAt).toISOString(),
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));

    assert.equal((await child.kill()).signal, "SIGKILL");
    assert.ok(Date.now() < dueAt, "killed before the message was due");

    child = await spawnServer({ kvPath, dataDir });
    admin = (await loginAt(child.url)).client;
    const sent = await until(async () => {
      const r = await admin.get(`/schedules/${created.body.id}`);
      return r.body.status === "PENDENTE" ? undefined : r.body;
    }, 30_000, "the schedule to go out");
    assert.equal(sent.status, "ENVIADA", JSON.stringify(sent));
    assert.ok(Date.parse(sent.sentAt) >= dueAt - 50, "not before its time");
    // Exactly once: a second delivery of the timer would add a second message.
    await new Promise((r) => setTimeout(r, 1500));
    const messages = await admin.get(`/messages/${sent.ticketId}`);
    const copies = messages.body.messages.filter((m: { body: string }) => m.body === body);
    assert.equal(copies.length, 1, `${copies.length} copies of the scheduled message`);
    const whatsapps = await admin.get("/whatsapp");
    const demo = whatsapps.body.find((w: { name: string }) => w.name === "WhatsApp Demo");
    const outbox = await admin.get(`/simulator/${demo.id}/outbox`);
    const entries = (Array.isArray(outbox.body) ? outbox.body : outbox.body.outbox ?? outbox.body.messages ?? [])
      .filter((e: { body: string }) => e.body === body);
    assert.equal(entries.length, 1, `the phone got it ${entries.length} times: ${JSON.stringify(outbox.body).slice(0, 300)}`);
  } finally {
    await child?.kill();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
});
