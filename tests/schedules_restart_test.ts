/**
 * A scheduled message survives a crash (issue #17 "done when"): the real `server/main.ts` runs
 * as a child process on a file KV, a schedule is created, the process is SIGKILLed before it
 * is due, a new process starts on the same BALCAO_KV, and the message goes out exactly once.
 */
import assert from "node:assert/strict";
import { Client } from "./helpers/server.ts";

/** A `server/main.ts` child and the URL it printed. */
interface Child {
  process: Deno.ChildProcess;
  url: string;
  output: () => string;
}

/** Starts `server/main.ts` on `kvPath` and waits for its "running at" line. */
async function startChild(kvPath: string, dataDir: string): Promise<Child> {
  const process = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--no-check", "server/main.ts"],
    env: {
      PORT: "0",
      BALCAO_KV: kvPath,
      BALCAO_DATA: dataDir,
      BALCAO_SECRET: "restart-test-secret",
      BALCAO_PASSWORD_HASH: "fast",
    },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let text = "";
  const decoder = new TextDecoder();
  const { promise: url, resolve, reject } = Promise.withResolvers<string>();
  const timer = setTimeout(() => reject(new Error(`No start within 60 s: ${text}`)), 60_000);
  (async () => {
    for await (const chunk of process.stdout) {
      text += decoder.decode(chunk, { stream: true });
      const found = /running at (http:\/\/localhost:\d+)/.exec(text);
      if (found) resolve(found[1].replace("localhost", "127.0.0.1"));
    }
    reject(new Error(`The server ended before it listened: ${text}`));
  })();
  const errors = new Response(process.stderr).text();
  try {
    return { process, url: await url, output: () => text };
  } catch (error) {
    process.kill("SIGKILL");
    throw new Error(`${error}\n${await errors}`);
  } finally {
    clearTimeout(timer);
  }
}

async function login(url: string): Promise<Client> {
  const client = new Client(url);
  const r = await client.post("/auth/login", { email: "admin@demo.local", password: "demo1234" });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  client.token = r.body.token;
  return client;
}

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
  let child: Child | undefined;
  try {
    child = await startChild(kvPath, dataDir);
    let admin = await login(child.url);
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

    child.process.kill("SIGKILL");
    assert.equal((await child.process.status).signal, "SIGKILL");
    assert.ok(Date.now() < dueAt, "killed before the message was due");

    child = await startChild(kvPath, dataDir);
    admin = await login(child.url);
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
    if (child) {
      child.process.kill("SIGKILL");
      await child.process.status;
    }
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
});
