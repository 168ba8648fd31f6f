/**
 * The campaign report's detail rows come a page at a time (issue #19): a 300-contact campaign
 * with confirmations, 12 of them confirmed; pages and sizes, the search by number or name,
 * the status filters agreeing with the report's counts, and the query's validation.
 */
import assert from "node:assert/strict";
import { withServer } from "./helpers/server.ts";
import { seedContactList } from "./helpers/campaign_lists.ts";
import { eventually } from "./helpers/channels.ts";

Deno.test("campaign report: 300 shipping rows paged, searched and filtered on the server", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const companyId = server.demo!.companyId;
    const conn = (await admin.get("/whatsapp")).body.find((w: { name: string }) => w.name === "WhatsApp Demo");
    const numbers = await seedContactList(server.deps.kv, companyId, 3, 300);
    const created = await admin.post("/campaigns", {
      name: "Relatório grande",
      contactListId: 3,
      whatsappId: String(conn.id),
      scheduledAt: new Date().toISOString(),
      confirmation: true,
      message1: "Oi {primeiroNome}",
      confirmationMessage1: "Podemos enviar?",
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const id = created.body.id;
    const report = (q = "") => admin.get(`/campaigns/${id}/report${q}`);
    await eventually(async () => (await report()).body.counts.confirmationRequested === 300 || undefined, 60_000, "300 confirmations");
    for (const n of numbers.slice(0, 12)) await admin.post(`/simulator/${conn.id}/inbound`, { from: n, name: "x", body: "sim" });
    const done = await eventually(async () => {
      const r = (await report()).body;
      return r.counts.delivered === 12 ? r : undefined;
    }, 30_000, "12 messages after the confirmations");

    // The first page by default: 50 of 300, in list order.
    assert.equal(done.total, 300);
    assert.equal(done.shipping.length, 50);
    assert.equal(done.hasMore, true);
    assert.deepEqual([done.pageNumber, done.pageSize], [1, 50]);
    assert.deepEqual(done.shipping.map((r: { number: string }) => r.number), numbers.slice(0, 50));
    // The last page, and another size.
    const last = (await report("?pageNumber=6")).body;
    assert.deepEqual([last.shipping.length, last.hasMore], [50, false]);
    assert.equal(last.shipping.at(-1).number, numbers[299]);
    const big = (await report("?pageSize=100&pageNumber=3")).body;
    assert.deepEqual(big.shipping.map((r: { number: string }) => r.number), numbers.slice(200, 300));
    assert.equal((await report("?pageNumber=7")).body.shipping.length, 0);

    // Search by number or by name ("Cliente 12 Teste", "Cliente 120 Teste"…).
    const one = (await report(`?searchParam=${numbers[123]}`)).body;
    assert.deepEqual([one.total, one.shipping[0].number], [1, numbers[123]]);
    const named = (await report("?searchParam=cliente%2012")).body;
    assert.equal(named.total, 11, "12 and 120–129");

    // The status filters count what the cards count.
    const counts = done.counts;
    const total = async (status: string, extra = "") => (await report(`?status=${status}${extra}`)).body.total;
    assert.equal(await total("requested"), counts.confirmationRequested);
    assert.equal(await total("confirmed"), 12);
    assert.equal(await total("delivered"), counts.delivered);
    assert.equal(await total("pending"), 288);
    assert.equal(await total("failed"), 0);
    assert.equal(await total("confirmed", `&searchParam=${numbers[5]}`), 1, "search and filter together");
    assert.equal(await total("delivered", `&searchParam=${numbers[200]}`), 0);

    // Validation of the query.
    assert.equal((await report("?pageSize=7")).status, 400);
    assert.equal((await report("?status=lost")).status, 400);
    assert.equal((await report(`?searchParam=${"x".repeat(201)}`)).status, 400);
  }, { campaignTimeScale: 0 });
});
