/**
 * The campaign engine paces by the saved campaign settings (issue #19): the gaps between the
 * messages the simulator receives show the random wait up to `messageInterval` inside a batch
 * and the `greaterInterval` pause after every `longerIntervalAfter` messages. The time scale
 * shortens every interval by the same factor (1 s instead of 200 s), never removing them.
 */
import assert from "node:assert/strict";
import { withServer } from "./helpers/server.ts";
import { seedContactList } from "./helpers/campaign_lists.ts";

const SCALE = 0.005;
/** 200 s × 0.005 = 1,000 ms between batches; 5 s × 0.005 = up to 25 ms inside one. */
const PAUSE_MS = 200 * 1000 * SCALE;

Deno.test("campaign pacing: the pause between batches is honoured, messages inside a batch are not held that long", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const companyId = server.demo!.companyId;
    const conn = (await admin.get("/whatsapp")).body.find((w: { name: string }) => w.name === "WhatsApp Demo");
    const numbers = await seedContactList(server.deps.kv, companyId, 7, 9);
    const saved = await admin.post("/campaign-settings", { settings: { messageInterval: 5, longerIntervalAfter: 3, greaterInterval: 200, variables: [] } });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    const created = await admin.post("/campaigns", {
      name: "Ritmo",
      contactListId: 7,
      whatsappId: String(conn.id),
      scheduledAt: new Date().toISOString(),
      message1: "Oi {primeiroNome}",
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));

    const end = Date.now() + 30_000;
    while ((await admin.get(`/campaigns/${created.body.id}`)).body.status !== "FINALIZADA") {
      assert.ok(Date.now() < end, "the campaign finishes");
      await new Promise((r) => setTimeout(r, 100));
    }
    const outbox = ((await admin.get(`/simulator/${conn.id}/outbox`)).body.messages as Array<{ to: string; timestamp: number }>)
      .filter((m) => numbers.includes(m.to));
    assert.deepEqual(outbox.map((m) => m.to), numbers, "each contact once, in list order");
    const gaps = outbox.slice(1).map((m, i) => m.timestamp - outbox[i].timestamp);
    console.log("gaps between messages (ms):", gaps.join(", "));
    // Gaps after the 3rd and 6th message close a batch: at least the pause.
    for (const i of [2, 5]) assert.ok(gaps[i] >= PAUSE_MS, `gap after message ${i + 1} is ${gaps[i]} ms, under the ${PAUSE_MS} ms pause`);
    // Inside a batch: the random wait (≤ 25 ms) plus the step's own work, well under the pause.
    for (const i of [0, 1, 3, 4, 6, 7]) assert.ok(gaps[i] < PAUSE_MS / 2, `gap after message ${i + 1} is ${gaps[i]} ms inside a batch`);
  }, { campaignTimeScale: SCALE });
});
