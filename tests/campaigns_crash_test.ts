/**
 * The campaign crash test (issue #19): a running campaign of 2,000 contacts on the real
 * `server/main.ts` (child process, file KV), SIGKILLed at 5 random points and restarted on the
 * same store: in the end every contact got exactly one message and none was skipped. What the
 * phone received is the simulator's durable ledger of keyed sends (it survives the kills like a
 * real phone's inbox); `repeats` counts the re-sends after a kill that the key made harmless.
 * At every kill and at the end, the report's kept tally in the stored campaign (#19) equals a
 * recount of the stored rows: they commit in one atomic, so a kill never splits them.
 */
import assert from "node:assert/strict";
import { type ChildServer, loginAt, spawnServer } from "./helpers/child_server.ts";
import { seedContactList } from "./helpers/campaign_lists.ts";
import type { SimulatorLedgerEntry } from "../server/channels/simulator.ts";
import { shippingRows, type StoredCampaign } from "../actors/campaigns/mod.ts";
import { campaignKey } from "../actors/campaigns/keys.ts";
import { tallyRows } from "../domain/campaign_report.ts";

/** The stored tally of campaign `id` against a recount of its stored rows (no server running). */
async function assertTally(kvPath: string, companyId: number, id: number, label: string): Promise<number> {
  const kv = await Deno.openKv(kvPath);
  try {
    const record = (await kv.get<StoredCampaign>(campaignKey(companyId, id))).value!;
    const rows = await shippingRows(kv, companyId, id);
    assert.deepEqual(record.engine.tally, tallyRows(rows), label);
    return rows.length;
  } finally {
    kv.close();
  }
}

async function until<T>(probe: () => Promise<T | undefined>, ms: number, what: string): Promise<T> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const v = await probe().catch(() => undefined);
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`Timed out waiting for ${what}`);
}

Deno.test("a 2,000-contact campaign killed 5 times sends each contact exactly one message", async () => {
  const dir = await Deno.makeTempDir({ prefix: "campaign_crash_" });
  const kvPath = `${dir}/balcao.kv`;
  const dataDir = `${dir}/media`;
  const env = { BALCAO_CAMPAIGN_TIME_SCALE: "0" };
  let child: ChildServer | undefined;
  try {
    child = await spawnServer({ kvPath, dataDir, env });
    let admin = (await loginAt(child.url)).client;
    const conn = (await admin.get("/whatsapp")).body.find((w: { name: string }) => w.name === "WhatsApp Demo");
    const companyId: number = conn.companyId;
    const seedKv = await Deno.openKv(kvPath);
    const numbers = await seedContactList(seedKv, companyId, 7, 2000);
    seedKv.close();
    const created = await admin.post("/campaigns", {
      name: "Crash",
      contactListId: 7,
      whatsappId: String(conn.id),
      scheduledAt: new Date(Date.now() + 100).toISOString(),
      message1: "Oferta {nome}",
      message2: "Promo {primeiroNome}",
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const id = created.body.id;
    const delivered = async () => (await admin.get(`/campaigns/${id}/report`)).body.counts.delivered as number;
    const kills: number[] = [];
    for (let round = 0; round < 5; round++) {
      const before = await until(async () => (await delivered()) >= round * 300 + 1 ? await delivered() : undefined, 120_000, "progress");
      await new Promise((r) => setTimeout(r, 50 + Math.floor(Math.random() * 400)));
      assert.equal((await child.kill()).signal, "SIGKILL");
      kills.push(before);
      await assertTally(kvPath, companyId, id, `kill ${round + 1}`);
      child = await spawnServer({ kvPath, dataDir, env });
      admin = (await loginAt(child.url)).client;
    }
    await until(async () => (await admin.get(`/campaigns/${id}`)).body.status === "FINALIZADA" || undefined, 180_000, "the end");
    assert.deepEqual((await admin.get(`/campaigns/${id}/report`)).body.counts.delivered, 2000);
    await child.kill();
    child = undefined;
    assert.equal(await assertTally(kvPath, companyId, id, "the end"), 2000);
    const kv = await Deno.openKv(kvPath);
    const prefix = `cmp-${companyId}-${id}-`;
    const got: SimulatorLedgerEntry[] = [];
    for await (const e of kv.list<SimulatorLedgerEntry>({ prefix: ["simulator_ledger", companyId, conn.id] })) {
      if (String(e.key[3]).startsWith(prefix)) got.push(e.value);
    }
    kv.close();
    const perNumber = new Map<string, number>();
    for (const g of got) perNumber.set(g.to, (perNumber.get(g.to) ?? 0) + 1);
    const repeats = got.reduce((n, g) => n + g.repeats, 0);
    console.log(`kills after ${kills.join(", ")} delivered; received ${got.length}; re-sends recognised ${repeats}`);
    assert.equal(got.length, 2000, "one message per contact");
    assert.equal(perNumber.size, 2000);
    assert.ok(numbers.every((n) => perNumber.get(n) === 1), "none skipped, none twice");
  } finally {
    await child?.kill();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
});
