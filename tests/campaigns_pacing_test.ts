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

Deno.test("campaign pacing: confirmed contacts' messages are paced too, and invalid contacts add no pause", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const companyId = server.demo!.companyId;
    const conn = (await admin.get("/whatsapp")).body.find((w: { name: string }) => w.name === "WhatsApp Demo");
    // 8 entries, every 4th without WhatsApp: 6 contacts get a confirmation request.
    const numbers = await seedContactList(server.deps.kv, companyId, 8, 8, 4);
    assert.equal(numbers.length, 6);
    await admin.post("/campaign-settings", { settings: { messageInterval: 5, longerIntervalAfter: 3, greaterInterval: 200, variables: [] } });
    const created = await admin.post("/campaigns", {
      name: "Ritmo confirmado",
      contactListId: 8,
      whatsappId: String(conn.id),
      scheduledAt: new Date().toISOString(),
      confirmation: true,
      message1: "Oferta {primeiroNome}",
      confirmationMessage1: "Quer receber?",
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const outbox = async (prefix: string) =>
      ((await admin.get(`/simulator/${conn.id}/outbox`)).body.messages as Array<{ to: string; body: string; timestamp: number }>)
        .filter((m) => numbers.includes(m.to) && m.body.startsWith(prefix));
    const gapsOf = (list: Array<{ timestamp: number }>) => list.slice(1).map((m, i) => m.timestamp - list[i].timestamp);

    const end = Date.now() + 30_000;
    while ((await outbox("Quer")).length < 6) {
      assert.ok(Date.now() < end, "the six confirmation requests go out");
      await new Promise((r) => setTimeout(r, 100));
    }
    const asks = gapsOf(await outbox("Quer"));
    console.log("gaps between confirmation requests (ms):", asks.join(", "));
    // 6 requests: the pause after the 3rd; the skipped 4th entry added none of its own.
    assert.ok(asks[2] >= PAUSE_MS && asks[2] < 1.8 * PAUSE_MS, `one pause after the 3rd request, not two: ${asks[2]} ms`);
    for (const i of [0, 1, 3, 4]) assert.ok(asks[i] < PAUSE_MS / 2, `gap after request ${i + 1}: ${asks[i]} ms`);

    // Everyone says yes, one by one, a little apart (slower than a send within a batch, as
    // real replies come): the six campaign messages still keep the batch pause. (A reply that
    // came in while no step was armed used to go at once, pause or not.)
    for (const n of numbers) {
      assert.equal((await admin.post(`/simulator/${conn.id}/inbound`, { from: n, name: "x", body: "sim" })).status, 200);
      await new Promise((r) => setTimeout(r, 150));
    }
    while ((await outbox("Oferta")).length < 6) {
      assert.ok(Date.now() < end, "the six messages go out");
      await new Promise((r) => setTimeout(r, 100));
    }
    const offers = await outbox("Oferta");
    const gaps = gapsOf(offers);
    console.log("gaps between confirmed messages (ms):", gaps.join(", "));
    // Sends 7 to 12 of the run: the 9th closes a batch, so the pause falls after the 3rd offer.
    assert.ok(gaps[2] >= PAUSE_MS, `pause inside the confirmed burst: ${gaps[2]} ms`);
    assert.equal(new Set(offers.map((m) => m.to)).size, 6, "each confirmed contact once");
    const report = (await admin.get(`/campaigns/${created.body.id}/report`)).body;
    assert.deepEqual([report.counts.confirmationRequested, report.counts.confirmed, report.counts.delivered], [6, 6, 6]);
  }, { campaignTimeScale: SCALE });
});
