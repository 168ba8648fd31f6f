/**
 * The campaign report's kept counts (#19) against a recount, through random changes: the
 * campaigns actor runs on a KV file with fake ports (a send that succeeds, fails for good or
 * throws at random; two contact lists with invalid entries), and the test mixes steps,
 * positive confirmations, stops, resumes, contact-list changes (back and forth, so a claim
 * replaces the old list's rows), restarts of the whole actor system and a store from before
 * the tally (rebuilt by the scan in `load`). After every change: the stored tally equals a
 * recount of the rows read in the same snapshot, the live state's tally equals the stored one,
 * and report pages (every filter, with the row index) equal the brute-force page.
 */
import assert from "node:assert/strict";
import { ActorSystem } from "../actors/_runtime/system.ts";
import {
  bindCampaignPorts,
  campaignReply,
  campaignsOf,
  type CampaignsState,
  saveRebuiltTally,
  type ContactListEntry,
  shippingPageOf,
  shippingRows,
  type StoredCampaign,
} from "../actors/campaigns/mod.ts";
import { campaignKey } from "../actors/campaigns/keys.ts";
import { CampaignInput, type CampaignShipping } from "../domain/campaign.ts";
import { CampaignReportQuery, SHIPPING_FILTERS, shippingPage, tallyRows } from "../domain/campaign_report.ts";

const COMPANY = 7;
const SEED = Number(Deno.env.get("TALLY_SEED") ?? 19);
const CHANGES = 300;

/** A small seeded PRNG (mulberry32), so a failure can be replayed with TALLY_SEED. */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Two lists with distinct entry ids (ids are per company), every 7th number invalid. */
function lists(): Map<number, ContactListEntry[]> {
  const out = new Map<number, ContactListEntry[]>();
  for (const [listId, first] of [[1, 1], [2, 41]] as const) {
    out.set(listId, Array.from({ length: 40 }, (_, k) => ({
      id: first + k,
      name: `Pessoa ${first + k}`,
      number: `55119${String(first + k).padStart(8, "0")}`,
      email: null,
      isWhatsappValid: (first + k) % 7 === 0 ? false : k % 5 === 0 ? null : true,
    })));
  }
  return out;
}

Deno.test("campaign tally: kept counts equal a recount through random sends, failures, confirmations, stops, list changes and restarts", async () => {
  const random = prng(SEED);
  const entries = lists();
  const dir = await Deno.makeTempDir({ prefix: "balcao-tally-" });
  const path = `${dir}/kv`;
  let kv = await Deno.openKv(path);
  let system: ActorSystem;
  const open = () => {
    system = new ActorSystem(kv);
    bindCampaignPorts(system, {
      timeScale: 100, // paced, with waits far beyond the test: only the test's steps send
      contactLists: {
        name: () => Promise.resolve("Lista"),
        entriesAfter: (_c, listId, afterId, limit) => Promise.resolve((entries.get(listId) ?? []).filter((e) => e.id > afterId).slice(0, limit)),
        validCount: () => Promise.resolve(0),
      },
      groupLists: { name: () => Promise.resolve(undefined), members: () => Promise.resolve([]) },
      send(m) {
        const r = random();
        if (r < 0.1) return Promise.resolve({ failed: "gone" });
        if (r < 0.2) return Promise.reject(new Error("connection down"));
        return Promise.resolve({ providerId: `p-${m.idempotencyKey}` });
      },
    });
  };
  const restart = async (legacy: boolean) => {
    await system.close();
    kv.close();
    await system.listening.catch(() => {});
    if (legacy) {
      // A store from before the kept tally: the record without it.
      const k = await Deno.openKv(path);
      const rec = (await k.get<StoredCampaign>(campaignKey(COMPANY, id))).value!;
      const { tally: _gone, ...engine } = rec.engine;
      await k.set(campaignKey(COMPANY, id), { ...rec, engine });
      k.close();
    }
    kv = await Deno.openKv(path);
    open();
  };
  open();
  const ref = () => campaignsOf(system!, COMPANY);
  const input = (listId: number) =>
    CampaignInput.parse({
      name: "Tally",
      contactListId: listId,
      whatsappId: "1",
      scheduledAt: new Date().toISOString(),
      confirmation: true,
      message1: "Oi {nome}",
      confirmationMessage1: "Posso enviar?",
      message2: "Olá {primeiroNome}",
      confirmationMessage2: "Confirma?",
    });
  const created = await ref().ask("create", { input: input(1) });
  const id = created.id;
  let listId = 1;

  /** The stored tally and the rows in one snapshot (the record's version did not move). */
  async function snapshot(): Promise<{ record: StoredCampaign; rows: CampaignShipping[] } | undefined> {
    const before = await kv.get<StoredCampaign>(campaignKey(COMPANY, id));
    const rows = await shippingRows(kv, COMPANY, id);
    const after = await kv.get<StoredCampaign>(campaignKey(COMPANY, id));
    return before.versionstamp === after.versionstamp ? { record: after.value!, rows } : undefined;
  }

  async function check(label: string): Promise<void> {
    for (let attempt = 0; attempt < 100; attempt++) {
      // A no-op ask: its reply comes once every earlier write of the actor is durable.
      await ref().ask("indexDone", { id: -1, ids: null });
      const snap = await snapshot();
      const live = (await ref().peek<CampaignsState>()).records.get(id)!;
      // A record from an older store has no tally until its next write: the rebuilt one is live.
      const stored = snap && { ...snap.record.engine, tally: snap.record.engine.tally ?? live.engine.tally };
      if (!snap || JSON.stringify(live.engine) !== JSON.stringify(stored)) {
        await new Promise((r) => setTimeout(r, 20));
        continue;
      }
      assert.deepEqual(live.engine.tally, tallyRows(snap.rows), `${label}: kept tally = recount`);
      for (const [f, v] of Object.entries(live.engine.tally)) seen.set(f, Math.max(seen.get(f) ?? 0, v));
      const size = 20;
      const pages: Array<[string, unknown, unknown]> = [];
      for (const status of SHIPPING_FILTERS) {
        for (const pageNumber of [1, 2, 3]) {
          const q = CampaignReportQuery.parse({ status, pageNumber: String(pageNumber), pageSize: String(size) });
          pages.push([`${label}: page ${pageNumber} of ${status}`, await shippingPageOf(system!, live, q), shippingPage(snap.rows, q)]);
        }
      }
      // The pages are judged only if nothing moved while they were read (a timer's step may run).
      const again = await snapshot();
      if (!again || JSON.stringify(again.record) !== JSON.stringify(snap.record)) continue;
      for (const [what, got, want] of pages) assert.deepEqual(got, want, what);
      return;
    }
    throw new Error(`${label}: the campaign never settled`);
  }

  const counts = new Map<string, number>();
  /** The most rows each filter counted at a check: every card must have been exercised. */
  const seen = new Map<string, number>();
  const tried = (what: string) => counts.set(what, (counts.get(what) ?? 0) + 1);
  try {
    await check("created");
    for (let n = 0; n < CHANGES; n++) {
      const c = (await ref().peek<CampaignsState>()).records.get(id)!;
      const r = random();
      let what: string;
      if (n % 30 === 15 && (c.status === "EM_ANDAMENTO" || c.status === "CANCELADA")) {
        // Every so often, on top of the random ones: stop and change the list (back and forth).
        what = "list change";
        if (c.status === "EM_ANDAMENTO") await ref().ask("cancel", { id });
        listId = listId === 1 ? 2 : 1;
        await ref().ask("update", { id, input: input(listId) });
      } else if (r < 0.4) {
        // A step as its timer delivers it; a scheduled campaign's timer is its start.
        what = "step";
        await ref().ask(c.status === "PROGRAMADA" ? "start" : "step", { id });
      } else if (r < 0.6) {
        what = "confirm";
        const waiting = (await shippingRows(kv, COMPANY, id)).filter((row) => row.confirmationRequestedAt !== null && row.confirmedAt === null);
        if (waiting.length === 0) continue;
        const row = waiting[Math.floor(random() * waiting.length)];
        await campaignReply(system!, COMPANY, row.number, random() < 0.5 ? "sim" : "1");
      } else if (r < 0.66) {
        what = "stop";
        if (c.status !== "EM_ANDAMENTO") continue;
        await ref().ask("cancel", { id });
      } else if (r < 0.8) {
        what = "resume";
        if (c.status !== "CANCELADA") continue;
        await ref().ask("restart", { id });
      } else if (r < 0.89) {
        what = "list change";
        if (c.status !== "CANCELADA") continue;
        listId = listId === 1 ? 2 : 1;
        await ref().ask("update", { id, input: input(listId) });
      } else if (r < 0.97) {
        what = "restart";
        await restart(false);
      } else {
        what = "older store";
        await restart(true);
        // The report's first read stores the rebuilt tally (else the next write does).
        if (random() < 0.5) {
          await saveRebuiltTally(system!, COMPANY, id);
          await ref().ask("indexDone", { id: -1, ids: null }); // a step's store may be in flight
          assert.ok((await kv.get<StoredCampaign>(campaignKey(COMPANY, id))).value!.engine.tally, "the rebuilt tally is stored");
        }
      }
      tried(what);
      await check(`change ${n} (${what})`);
    }
    // Every kind of change happened, rows were written and some counted in each card.
    for (const what of ["step", "confirm", "stop", "resume", "list change", "restart", "older store"]) {
      assert.ok((counts.get(what) ?? 0) > 0, `no ${what} in the run: ${JSON.stringify([...counts])}`);
    }
    for (const f of SHIPPING_FILTERS) assert.ok((seen.get(f) ?? 0) > 0, `no ${f} row at any check: ${JSON.stringify([...seen])}`);
    console.log(`changes: ${JSON.stringify(Object.fromEntries(counts))}; most rows per filter: ${JSON.stringify(Object.fromEntries(seen))}`);
  } finally {
    await system!.close();
    kv.close();
    await system!.listening.catch(() => {});
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
});
