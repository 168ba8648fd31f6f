/**
 * A store that refuses writes (issue #24 faults): the server runs on a file KV wrapped so that
 * every commit fails as a full disk's does (actors/_runtime/testing.ts refusingKv). While it
 * refuses, each kind of write answers 503 ERR_STORE_UNAVAILABLE at once (no hang, no 500), reads
 * and /health keep answering; once it accepts again the same writes succeed; and a new server
 * on the same file finds every acknowledged write and none of the refused ones.
 */
import assert from "node:assert/strict";
import { type RefusingKv, refusingKv } from "../actors/_runtime/testing.ts";
import { demoConnection, eventually } from "./helpers/channels.ts";
import { freshNumber } from "./helpers/messages.ts";
import { type ApiResult, type Client, startTestServer } from "./helpers/server.ts";
import { withTempDir } from "./helpers/temp.ts";

/** A refused write must answer well within this (a hang fails the test instead of stalling it). */
const ANSWER_WITHIN_MS = 5000;

/** Runs `call`, failing if it takes longer than ANSWER_WITHIN_MS. */
async function timed<T>(what: string, call: () => Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ANSWER_WITHIN_MS} ms`)), ANSWER_WITHIN_MS);
  });
  try {
    return await Promise.race([call(), late]);
  } finally {
    clearTimeout(timer);
  }
}

function assertRefused(what: string, r: ApiResult): void {
  assert.equal(r.status, 503, `${what}: ${r.status} ${JSON.stringify(r.body)}`);
  assert.equal(r.body.error, "ERR_STORE_UNAVAILABLE", what);
  assert.match(r.body.message, /store/i, what);
  assert.ok(Number(r.headers.get("retry-after")) > 0, `${what} says when to retry`);
}

/** The writes the test makes, each returning what proves it stored (a text, a tag name…). */
interface Writes {
  inbound(from: string, body: string): Promise<ApiResult>;
  reply(ticketId: number, body: string): Promise<ApiResult>;
  accept(ticketId: number): Promise<ApiResult>;
  tag(name: string): Promise<ApiResult>;
  schedule(contactId: number, body: string): Promise<ApiResult>;
}

function writesOf(admin: Client, connId: number, adminId: number): Writes {
  return {
    inbound: (from, body) => admin.post(`/simulator/${connId}/inbound`, { from, name: `Cliente ${from.slice(-4)}`, body }),
    reply: (ticketId, body) => admin.post(`/messages/${ticketId}`, { body }),
    accept: (ticketId) => admin.put(`/tickets/${ticketId}`, { status: "open", userId: adminId }),
    tag: (name) => admin.post("/tags", { name }),
    // Far in the future: the schedule's record is the write checked, not its send.
    schedule: (contactId, body) =>
      admin.post("/schedules", { body, contactId, sendAt: new Date(Date.now() + 3600_000).toISOString() }),
  };
}

async function loginAdmin(server: { login(email: string): Promise<Client> }): Promise<{ admin: Client; adminId: number }> {
  const admin = await server.login("admin@demo.local");
  const me = await admin.get("/auth/me");
  return { admin, adminId: me.body.id ?? me.body.user?.id };
}

async function ticketOf(admin: Client, number: string): Promise<{ id: number; status: string; contactId: number }> {
  return await eventually(async () => {
    const list = (await admin.get("/tickets?showAll=true&limit=1000")).body.tickets as {
      id: number;
      status: string;
      contactId: number;
      contact: { number: string };
    }[];
    return list.find((t) => t.contact.number === number);
  }, 10_000, `the ticket of ${number}`);
}

/** Every message body of a ticket (a reply may carry the signature `*Name:*\n` before the text). */
async function bodiesOf(admin: Client, ticketId: number): Promise<string[]> {
  const bodies: string[] = [];
  for (let page = 1;; page++) {
    const r = await admin.get(`/messages/${ticketId}?pageNumber=${page}`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    bodies.push(...r.body.messages.map((m: { body: string }) => m.body.replace(/^\*[^*\n]+:\*\n/, "")));
    if (!r.body.hasMore) return bodies;
  }
}

Deno.test("a store that refuses writes answers 503 ERR_STORE_UNAVAILABLE, loses nothing acknowledged and recovers", async () => {
  await withTempDir("faults_store_", async (dir) => {
    const kvPath = `${dir}/store.kv`;
    let store: RefusingKv | undefined;
    const server = await startTestServer({ kvPath, wrapKv: (kv) => (store = refusingKv(kv)).kv });
    const acked = { inbound: [] as string[], replies: [] as string[], tags: [] as string[], schedules: [] as string[] };
    const refused = { inbound: "", reply: "", tag: "", schedule: "" };
    let number = "";
    let ticketId = 0;
    try {
      const { admin, adminId } = await loginAdmin(server);
      const conn = await demoConnection(admin);
      const w = writesOf(admin, conn.id, adminId);

      // Before: one conversation, accepted and answered, a tag and a schedule, all acknowledged.
      number = freshNumber();
      assert.equal((await w.inbound(number, "antes 1")).status, 200);
      acked.inbound.push("antes 1");
      const ticket = await ticketOf(admin, number);
      ticketId = ticket.id;
      assert.equal((await w.accept(ticketId)).status, 200);
      assert.equal((await w.reply(ticketId, "resposta antes")).status, 200);
      acked.replies.push("resposta antes");
      assert.equal((await w.tag("Etiqueta antes")).status, 200);
      acked.tags.push("Etiqueta antes");
      const sched = await w.schedule(ticket.contactId, "agendada antes");
      assert.equal(sched.status, 200, JSON.stringify(sched.body));
      acked.schedules.push("agendada antes");

      // Refusing: every write is a prompt 503 in the catalogue's shape.
      store!.refuse();
      refused.inbound = "recusada pelo disco";
      assertRefused("inbound", await timed("inbound", () => w.inbound(number, refused.inbound)));
      refused.reply = "resposta recusada";
      assertRefused("reply", await timed("reply", () => w.reply(ticketId, refused.reply)));
      refused.tag = "Etiqueta recusada";
      assertRefused("tag", await timed("tag", () => w.tag(refused.tag)));
      refused.schedule = "agendada recusada";
      assertRefused("schedule", await timed("schedule", () => w.schedule(ticket.contactId, refused.schedule)));
      // A new customer: contact, ticket and message would all be new records.
      assertRefused("new customer", await timed("new customer", () => w.inbound(freshNumber(), refused.inbound)));
      // The server keeps serving meanwhile: health, and reads of what is stored.
      assert.equal((await fetch(`${server.url}/health`)).status, 200);
      assert.equal((await admin.get(`/tickets/${ticketId}`)).status, 200);
      assert.ok((await bodiesOf(admin, ticketId)).includes("resposta antes"));
      assert.ok(store!.refused > 0);

      // Accepting again: the same kinds of writes work.
      store!.accept();
      assert.equal((await w.inbound(number, "depois 1")).status, 200);
      acked.inbound.push("depois 1");
      const reply = await w.reply(ticketId, "resposta depois");
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      acked.replies.push("resposta depois");
      assert.equal((await w.tag("Etiqueta depois")).status, 200);
      acked.tags.push("Etiqueta depois");
      assert.equal((await w.schedule(ticket.contactId, "agendada depois")).status, 200);
      acked.schedules.push("agendada depois");
    } finally {
      await server.close();
    }

    // A new server on the same file: every acknowledged write is there, no refused one is.
    const again = await startTestServer({ kvPath, demo: false });
    try {
      const { admin } = await loginAdmin(again);
      assert.equal((await admin.get(`/tickets/${ticketId}`)).body.status, "open");
      const bodies = await bodiesOf(admin, ticketId);
      for (const body of [...acked.inbound, ...acked.replies]) assert.ok(bodies.includes(body), `lost ${body}: ${bodies}`);
      assert.ok(!bodies.includes(refused.inbound) && !bodies.includes(refused.reply), `a refused write was stored: ${bodies}`);
      const tags = (await admin.get("/tags/list")).body as { name: string }[];
      const tagNames = (Array.isArray(tags) ? tags : []).map((t) => t.name);
      for (const name of acked.tags) assert.ok(tagNames.includes(name), `lost tag ${name}: ${tagNames}`);
      assert.ok(!tagNames.includes(refused.tag));
      const schedules = (await admin.get("/schedules?pageNumber=1")).body.schedules as { body: string }[];
      const scheduleBodies = schedules.map((s) => s.body);
      for (const body of acked.schedules) assert.ok(scheduleBodies.includes(body), `lost schedule ${body}`);
      assert.ok(!scheduleBodies.includes(refused.schedule));
      const tickets = (await admin.get("/tickets?showAll=true&limit=1000")).body.tickets as { contact: { number: string } }[];
      assert.equal(tickets.filter((t) => t.contact.number === number).length, 1, "one ticket for the customer");
    } finally {
      await again.close();
    }
  });
});
