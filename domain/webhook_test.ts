import assert from "node:assert/strict";
import { backoffMs, eventBody, MAX_BODY_BYTES, nextSecret, WebhookSubscriptionInput } from "./webhook.ts";
import { BoundedSeen, outgoingEvents } from "./webhook_events.ts";
import type { BusEvent } from "./events.ts";
import { SECRET_MASK } from "./settings.ts";

Deno.test("backoffMs() doubles from the base up to the cap, jittered by ±20 %", () => {
  const policy = { baseMs: 1000, maxMs: 60_000 };
  assert.deepEqual([1, 2, 3, 4].map((n) => backoffMs(n, policy)), [1000, 2000, 4000, 8000]);
  assert.equal(backoffMs(30, policy), 60_000);
  assert.equal(backoffMs(1, policy, 0), 800);
  assert.equal(backoffMs(1, policy, 1), 1200);
});

Deno.test("WebhookSubscriptionInput checks the URL, the events and the secret; nextSecret keeps the stored one", () => {
  const ok = WebhookSubscriptionInput.parse({ url: " https://x.io/h ", events: ["ticket.created", "ticket.created"], secret: "0123456789abcdef" });
  assert.deepEqual(ok, { url: "https://x.io/h", events: ["ticket.created"], secret: "0123456789abcdef", active: true });
  const bad = WebhookSubscriptionInput.safeParse({ url: "https://user:pw@x.io", events: [], secret: "short" });
  assert.equal(bad.success, false);
  assert.deepEqual(bad.error!.issues.map((i) => i.path[0]).sort(), ["events", "secret", "url"]);
  assert.equal(WebhookSubscriptionInput.safeParse({ url: "https://x.io", events: ["message.created"], secret: SECRET_MASK }).success, true);
  assert.equal(nextSecret("old-secret", SECRET_MASK), "old-secret");
  assert.equal(nextSecret("old-secret", ""), "old-secret");
  assert.equal(nextSecret("old-secret", "new-secret-0123456"), "new-secret-0123456");
});

Deno.test("eventBody() drops the data of a body too large for a KV record", () => {
  const small = JSON.parse(eventBody("e1", "message.created", 3, 0, { message: { body: "oi" } }));
  assert.deepEqual(small, { eventId: "e1", event: "message.created", createdAt: "1970-01-01T00:00:00.000Z", companyId: 3, data: { message: { body: "oi" } } });
  const large = JSON.parse(eventBody("e2", "message.created", 3, 0, { message: { body: "x".repeat(MAX_BODY_BYTES) } }));
  assert.equal(large.data, null);
  assert.equal(large.truncated, true);
});

const ev = (channel: string, data: unknown, extra: Partial<BusEvent> = {}): BusEvent => ({
  companyId: 1,
  channel: `company-1-${channel}`,
  data,
  scope: { kind: "company" },
  ...extra,
});

Deno.test("outgoingEvents() names ticket creation, sends an ack only when it changed, and never a QR code", () => {
  const seen = new BoundedSeen();
  const ticket = { id: 7 };
  assert.deepEqual(outgoingEvents(ev("ticket", { action: "update", ticket }, { created: true }), seen).map((o) => [o.event, o.lane]), [["ticket.created", "t7"]]);
  assert.deepEqual(outgoingEvents(ev("ticket", { action: "update", ticket }), seen).map((o) => o.event), ["ticket.updated"]);
  assert.deepEqual(outgoingEvents(ev("ticket", { action: "removeFromList", ticketId: 7 }), seen), []);
  const message = { id: "m1", ticketId: 7, ack: 0, body: "oi" };
  assert.deepEqual(outgoingEvents(ev("appMessage", { action: "create", message, ticket }), seen).map((o) => o.event), ["message.created"]);
  assert.deepEqual(outgoingEvents(ev("appMessage", { action: "update", message: { ...message, body: "editada" } }), seen), []);
  assert.deepEqual(outgoingEvents(ev("appMessage", { action: "update", message: { ...message, ack: 2 } }), seen).map((o) => [o.event, o.lane]), [["message.ack", "t7"]]);
  assert.deepEqual(outgoingEvents(ev("contact", { action: "create", contact: { id: 4 } }), seen).map((o) => [o.event, o.lane]), [["contact.created", "c4"]]);
  assert.deepEqual(outgoingEvents(ev("contact", { action: "update", contact: { id: 4 } }), seen), []);
  const session = { id: 2, status: "qrcode", qrcode: "2@SECRET", qrcodeEvo: "" };
  assert.deepEqual(outgoingEvents(ev("whatsappSession", { action: "update", session }, { scope: { kind: "admins" } }), seen), []);
  const out = outgoingEvents(ev("whatsappSession", { action: "update", session }, { scope: { kind: "notAdmins" } }), seen);
  assert.deepEqual(out.map((o) => o.event), ["session.status"]);
  assert.equal(JSON.stringify(out).includes("SECRET"), false);
  assert.deepEqual(outgoingEvents(ev("whatsappSession", { action: "update", session }, { scope: { kind: "notAdmins" } }), seen), []);
  assert.deepEqual(outgoingEvents(ev("tag", { action: "create", tag: {} }), seen), []);
  const campaign = { id: 3, status: "EM_ANDAMENTO", name: "Promo" };
  assert.deepEqual(outgoingEvents(ev("campaign", { action: "update", record: campaign, id: 3 }), seen), []);
  const done = outgoingEvents(ev("campaign", { action: "update", record: { ...campaign, status: "FINALIZADA" }, id: 3 }), seen);
  assert.deepEqual(done.map((o) => [o.event, o.lane]), [["campaign.finished", "k3"]]);
  assert.deepEqual(outgoingEvents(ev("campaign", { action: "update", record: { ...campaign, status: "FINALIZADA" }, id: 3 }), seen), [], "once");
});
