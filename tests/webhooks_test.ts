/**
 * Outbound webhooks (issue #22) over real HTTP: the subscriptions' CRUD, validation, roles,
 * plan and tenants; signed deliveries to a local receiver; a receiver that goes away for a
 * while (nothing lost, order per ticket kept); the delivery log and its resend; and a
 * connection's webhook through the same queue with the CRM keyword code.
 */
import assert from "node:assert/strict";
import { type Client, type TestServer, withServer } from "./helpers/server.ts";
import { createTenant } from "./helpers/tenants.ts";
import { demoConnection, eventually } from "./helpers/channels.ts";
import { freshNumber, inboundText, receive } from "./helpers/messages.ts";
import { type Received, validSignature, WebhookReceiver } from "./helpers/webhook_receiver.ts";
import { signBody } from "../server/channels/webhook.ts";
import { SECRET_MASK } from "../domain/settings.ts";

const SECRET = "a-test-secret-of-32-characters!!";
const PATH = "/webhooks/subscriptions";
/** Loopback receivers, and retries short enough for a test. */
const FAST = {
  webhookAllowPrivate: true,
  webhookRetry: { baseMs: 150, maxMs: 600, watchdogMs: 400, timeoutMs: 2000 },
};

async function subscribe(admin: Client, url: string, events: string[]): Promise<number> {
  const r = await admin.post(PATH, { url, events, secret: SECRET });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body.id;
}

const ofEvent = (received: Received[], event: string) => received.filter((r) => r.json?.event === event);

Deno.test("webhook subscriptions: CRUD with a write-only secret, validation, roles and tenants", async () => {
  await withServer(async (server: TestServer) => {
    const admin = await server.login("admin@demo.local");
    const url = "https://hooks.example.com/balcao";

    // Validation: the schema's messages, and the server's private-address rule.
    const bad = await admin.post(PATH, { url: "ftp://x.example.com/", events: [], secret: "short" });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error, "ERR_VALIDATION");
    assert.ok(bad.body.fields.url && bad.body.fields.events && bad.body.fields.secret, JSON.stringify(bad.body));
    const unknownEvent = await admin.post(PATH, { url, events: ["message.exploded"], secret: SECRET });
    assert.equal(unknownEvent.status, 400);
    for (const inside of ["http://127.0.0.1:9/x", "http://localhost/x", "http://10.1.2.3/x", "http://[::1]/x", "http://192.168.0.9/x"]) {
      const r = await admin.post(PATH, { url: inside, events: ["message.created"], secret: SECRET });
      assert.equal(r.status, 400, inside);
      assert.equal(r.body.fields.url, "Endereços internos ou privados não são permitidos");
    }
    const noSecret = await admin.post(PATH, { url, events: ["message.created"] });
    assert.equal(noSecret.status, 400);
    assert.ok(noSecret.body.fields.secret);

    // Create: the secret never comes back in clear.
    const created = await admin.post(PATH, { url, events: ["message.created", "ticket.updated", "message.created"], secret: SECRET });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    assert.equal(created.body.secret, SECRET_MASK);
    assert.deepEqual(created.body.events, ["message.created", "ticket.updated"]);
    assert.equal(created.body.active, true);
    const id = created.body.id;
    const list = await admin.get(PATH);
    assert.equal(list.status, 200);
    assert.equal(list.body.count, 1);
    assert.equal(list.body.subscriptions[0].secret, SECRET_MASK);
    assert.equal(list.body.subscriptions[0].pending, 0);
    assert.equal(JSON.stringify(list.body).includes(SECRET), false);

    // Edit with the mask keeps the secret; a new one replaces it (checked by what is stored).
    const edited = await admin.put(`${PATH}/${id}`, { url: `${url}/v2`, events: ["contact.created"], secret: SECRET_MASK, active: false });
    assert.equal(edited.status, 200, JSON.stringify(edited.body));
    assert.equal(edited.body.url, `${url}/v2`);
    assert.equal(edited.body.active, false);
    const { webhookSubscriptions } = await import("../actors/webhooks/mod.ts");
    const stored = await webhookSubscriptions.in(server.deps.system, server.demo!.companyId).get(id);
    assert.equal(stored?.secret, SECRET);
    await admin.put(`${PATH}/${id}`, { url, events: ["contact.created"], secret: "another-secret-0123456789" });
    assert.equal((await webhookSubscriptions.in(server.deps.system, server.demo!.companyId).get(id))?.secret, "another-secret-0123456789");

    // Roles: admins only.
    for (const email of ["supervisor@demo.local", "agent@demo.local"]) {
      const other = await server.login(email);
      assert.equal((await other.get(PATH)).status, 403, email);
      assert.equal((await other.post(PATH, { url, events: ["message.created"], secret: SECRET })).status, 403, email);
    }
    assert.equal((await server.client().get(PATH)).status, 401);

    // Tenants: another company's admin sees nothing of these and cannot touch them.
    const tenant = await createTenant(server, "Outra Empresa Webhooks");
    assert.equal((await tenant.admin.get(PATH)).body.count, 0);
    assert.equal((await tenant.admin.get(`${PATH}/${id}`)).status, 404);
    assert.equal((await tenant.admin.put(`${PATH}/${id}`, { url, events: ["message.created"] })).status, 404);
    assert.equal((await tenant.admin.delete(`${PATH}/${id}`)).status, 404);
    assert.equal((await tenant.admin.get(`${PATH}/${id}/deliveries`)).status, 404);

    // Delete.
    assert.equal((await admin.delete(`${PATH}/${id}`)).status, 200);
    assert.equal((await admin.get(`${PATH}/${id}`)).status, 404);
    assert.equal((await admin.get(PATH)).body.count, 0);
  });
});

Deno.test("webhook deliveries are signed, carry the event headers, and keep each ticket's order", async () => {
  const receiver = new WebhookReceiver().start();
  try {
    await withServer(async (server) => {
      const admin = await server.login("admin@demo.local");
      const id = await subscribe(admin, receiver.url(), ["message.created", "ticket.created", "ticket.updated", "contact.created"]);
      const number = freshNumber();
      await receive(server, inboundText(number, "primeira"));
      await receive(server, inboundText(number, "segunda"));
      const messages = await eventually(() => {
        const got = ofEvent(receiver.received, "message.created");
        return got.length >= 2 ? got : undefined;
      }, 10_000, "two message.created deliveries");
      for (const r of receiver.received) {
        assert.ok(await validSignature(r, SECRET), `signature of ${r.body}`);
        assert.equal(r.headers.get("X-Balcao-Event"), r.json.event);
        assert.match(r.headers.get("X-Balcao-Delivery") ?? "", /^[0-9a-f-]{36}$/);
        assert.ok(Math.abs(Number(r.headers.get("X-Balcao-Timestamp")) - Date.now() / 1000) < 60);
        assert.equal(r.json.companyId, server.demo!.companyId);
      }
      assert.deepEqual(messages.map((r) => r.json.data.message.body), ["primeira", "segunda"]);
      const ticketId = messages[0].json.data.message.ticketId;
      const lane = receiver.received.filter((r) =>
        r.json.data.ticket?.id === ticketId || r.json.data.message?.ticketId === ticketId
      );
      assert.equal(lane[0].json.event, "ticket.created", "a new ticket's first event is ticket.created");
      assert.equal(ofEvent(lane, "ticket.created").length, 1);
      assert.ok(ofEvent(lane, "ticket.updated").length >= 1);
      await eventually(() => ofEvent(receiver.received, "contact.created").find((r) => r.json.data.contact.number === number));
      // A wrong secret does not verify.
      assert.equal(await validSignature(messages[0], "not-the-secret-0123456789"), false);

      // The log shows each delivery with its answer.
      const log = await eventually(async () => {
        const r = await admin.get(`${PATH}/${id}/deliveries`);
        return r.body.pending === 0 && r.body.deliveries.length >= 4 ? r.body : undefined;
      });
      assert.ok(log.deliveries.every((d: { status: string; statusCode: number; attempts: number }) =>
        d.status === "delivered" && d.statusCode === 200 && d.attempts === 1
      ));
      assert.equal("body" in log.deliveries[0], false);
    }, FAST);
  } finally {
    await receiver.stop();
  }
});

Deno.test("a receiver that goes away for a while loses nothing and gets each ticket's messages in order", async () => {
  const receiver = new WebhookReceiver().start();
  await receiver.stop(); // the port is known; nothing listens there now
  try {
    await withServer(async (server) => {
      const admin = await server.login("admin@demo.local");
      const id = await subscribe(admin, receiver.url(), ["message.created"]);
      const numbers = [freshNumber(), freshNumber(), freshNumber()];
      const sent: string[] = [];
      // Interleaved across three tickets, while the receiver is down.
      for (let i = 0; i < 8; i++) {
        for (const [k, number] of numbers.entries()) {
          const body = `c${k}-m${i}`;
          sent.push(body);
          await receive(server, inboundText(number, body));
        }
      }
      const down = await eventually(async () => {
        const r = (await admin.get(`${PATH}/${id}/deliveries`)).body;
        return r.failures >= 2 ? r : undefined;
      }, 10_000, "failed tries while the receiver is down");
      assert.equal(down.pending, sent.length);
      assert.ok(down.deliveries.some((d: { error: string | null; attempts: number }) => d.error && d.attempts >= 1));
      await new Promise((r) => setTimeout(r, 1500)); // a while, with several backoff steps

      receiver.start();
      const bodies = () => ofEvent(receiver.received, "message.created").map((r) => r.json.data.message.body as string);
      await eventually(() => (new Set(bodies()).size === sent.length ? true : undefined), 20_000, "every message delivered");
      // Nothing lost; at least once (a duplicate would be allowed, never a gap or a swap).
      assert.deepEqual([...new Set(bodies())].sort(), [...sent].sort());
      for (const k of [0, 1, 2]) {
        const firsts = [...new Set(bodies().filter((b) => b.startsWith(`c${k}-`)))];
        assert.deepEqual(firsts, sent.filter((b) => b.startsWith(`c${k}-`)), `order of ticket ${k}`);
      }
      const after = await eventually(async () => {
        const r = (await admin.get(`${PATH}/${id}/deliveries`)).body;
        return r.pending === 0 ? r : undefined;
      });
      assert.equal(after.failures, 0);
      assert.ok(after.deliveries.every((d: { status: string }) => d.status === "delivered"));
      assert.ok(after.deliveries.some((d: { attempts: number }) => d.attempts > 1), "the first ones were retried");
    }, FAST);
  } finally {
    await receiver.stop();
  }
});

Deno.test("resend posts a finished delivery again with a new delivery id and the same event id", async () => {
  const receiver = new WebhookReceiver().start();
  try {
    await withServer(async (server) => {
      const admin = await server.login("admin@demo.local");
      const id = await subscribe(admin, receiver.url(), ["message.created"]);
      await receive(server, inboundText(freshNumber(), "reenviar esta"));
      const first = await eventually(() => ofEvent(receiver.received, "message.created")[0]);
      const log = await eventually(async () => {
        const r = (await admin.get(`${PATH}/${id}/deliveries`)).body;
        return r.deliveries[0]?.status === "delivered" ? r : undefined;
      });
      const original = log.deliveries[0];
      assert.equal((await admin.post(`${PATH}/${id}/deliveries/nope/resend`)).status, 404);
      const resent = await admin.post(`${PATH}/${id}/deliveries/${original.id}/resend`);
      assert.equal(resent.status, 200, JSON.stringify(resent.body));
      const again = await eventually(() => ofEvent(receiver.received, "message.created")[1]);
      assert.equal(again.json.eventId, first.json.eventId);
      assert.equal(again.headers.get("X-Balcao-Delivery"), resent.body.id);
      assert.notEqual(again.headers.get("X-Balcao-Delivery"), first.headers.get("X-Balcao-Delivery"));
      const after = (await admin.get(`${PATH}/${id}/deliveries`)).body;
      assert.equal(after.deliveries.find((d: { id: string }) => d.id === resent.body.id)?.resendOf, original.id);

      // A paused subscription keeps its deliveries pending; switching it on sends them.
      await admin.put(`${PATH}/${id}`, { url: receiver.url(), events: ["message.created"], active: false });
      await receive(server, inboundText(freshNumber(), "em pausa"));
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(receiver.received.some((r) => r.json.data.message.body === "em pausa"), false);
      await admin.put(`${PATH}/${id}`, { url: receiver.url(), events: ["message.created"], active: true });
      await receive(server, inboundText(freshNumber(), "ligada de novo"));
      await eventually(() => receiver.received.find((r) => r.json.data.message.body === "ligada de novo"));
    }, FAST);
  } finally {
    await receiver.stop();
  }
});

Deno.test("a connection's webhook goes through the queue, signed with its token, with the CRM keyword's code", async () => {
  const receiver = new WebhookReceiver().start();
  try {
    await withServer(async (server) => {
      const admin = await server.login("admin@demo.local");
      const demo = await demoConnection(admin);
      const full = (await admin.get(`/whatsapp/${demo.id}`)).body;
      const put = await admin.put(`/whatsapp/${demo.id}`, { ...full, webhook: receiver.url("/api/crm/hooks") });
      assert.equal(put.status, 200, JSON.stringify(put.body));
      const keywords = await admin.put(`/whatsapp/${demo.id}/keywords`, {
        keywords: [{ keyword: "orçamento", code: "ORC-1" }, { keyword: "suporte técnico", code: "SUP-2" }],
      });
      assert.equal(keywords.status, 200, JSON.stringify(keywords.body));
      await admin.post(`/simulator/${demo.id}/inbound`, { from: freshNumber(), name: "CRM", body: "Quero um ORCAMENTO, por favor" });
      await admin.post(`/simulator/${demo.id}/inbound`, { from: freshNumber(), name: "CRM 2", body: "sem palavra" });
      const coded = await eventually(() => receiver.received.find((r) => r.json?.message?.body?.startsWith("Quero")));
      assert.equal(coded.path, "/api/crm/hooks");
      assert.equal(coded.headers.get("X-Balcao-Signature"), await signBody(full.token, coded.body));
      assert.equal(coded.headers.get("X-Balcao-Event"), "message");
      assert.equal(coded.json.event, "message");
      assert.equal(coded.json.whatsappId, demo.id);
      assert.equal(coded.json.code, "ORC-1");
      assert.equal(coded.json.keyword, "orçamento");
      const plain = await eventually(() => receiver.received.find((r) => r.json?.message?.body === "sem palavra"));
      assert.equal(plain.json.code, null);
    }, FAST);
  } finally {
    await receiver.stop();
  }
});
