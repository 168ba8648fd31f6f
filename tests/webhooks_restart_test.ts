/**
 * Pending webhook deliveries survive a restart (issue #22): a server on a file KV enqueues
 * deliveries to a receiver that is down, closes, and a new server on the same store sends
 * them all, in each ticket's order, once the receiver is back, with no request from anyone:
 * the delivery actor's KV timer wakes it.
 */
import assert from "node:assert/strict";
import { startTestServer } from "./helpers/server.ts";
import { eventually } from "./helpers/channels.ts";
import { freshNumber, inboundText, receive } from "./helpers/messages.ts";
import { withTempDir } from "./helpers/temp.ts";
import { validSignature, WebhookReceiver } from "./helpers/webhook_receiver.ts";

const SECRET = "restart-secret-0123456789abcdef";
const FAST = {
  webhookAllowPrivate: true,
  webhookRetry: { baseMs: 150, maxMs: 600, watchdogMs: 400, timeoutMs: 2000 },
};

Deno.test("webhook deliveries pending when the server stops are sent by the next server on the same store", async () => {
  await withTempDir("webhooks_restart_", async (dir) => {
    const kvPath = `${dir}/balcao.kv`;
    const receiver = new WebhookReceiver().start();
    await receiver.stop();
    const sent: string[] = [];
    const first = await startTestServer({ kvPath, ...FAST });
    let subId: number;
    try {
      const admin = await first.login("admin@demo.local");
      const created = await admin.post("/webhooks/subscriptions", { url: receiver.url(), events: ["message.created"], secret: SECRET });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      subId = created.body.id;
      const numbers = [freshNumber(), freshNumber()];
      for (let i = 0; i < 4; i++) {
        for (const [k, number] of numbers.entries()) {
          sent.push(`r${k}-${i}`);
          await receive(first, inboundText(number, `r${k}-${i}`));
        }
      }
      await eventually(async () => {
        const log = (await admin.get(`/webhooks/subscriptions/${subId}/deliveries`)).body;
        return log.failures >= 1 && log.pending === sent.length ? true : undefined;
      }, 10_000, "pending deliveries with failed tries");
    } finally {
      await first.close();
    }

    receiver.start();
    const second = await startTestServer({ kvPath, demo: false, ...FAST });
    try {
      const bodies = () => receiver.received.map((r) => r.json.data.message.body as string);
      await eventually(() => (new Set(bodies()).size === sent.length ? true : undefined), 20_000, "every delivery after the restart");
      for (const r of receiver.received) assert.ok(await validSignature(r, SECRET));
      for (const k of [0, 1]) {
        assert.deepEqual([...new Set(bodies().filter((b) => b.startsWith(`r${k}-`)))], sent.filter((b) => b.startsWith(`r${k}-`)));
      }
      const admin = await second.login("admin@demo.local");
      const log = await eventually(async () => {
        const body = (await admin.get(`/webhooks/subscriptions/${subId}/deliveries`)).body;
        return body.pending === 0 ? body : undefined;
      });
      assert.equal(log.deliveries.filter((d: { status: string }) => d.status === "delivered").length, sent.length);
    } finally {
      await second.close();
      await receiver.stop();
    }
  });
});
