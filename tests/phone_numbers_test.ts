/**
 * Issue #41, bug 2 over HTTP: every place a number is typed reads it the same way (the
 * company's country code when missing), refuses one no WhatsApp account can have, and a
 * campaign never counts a send to such a number (stored before the rule) as delivered.
 */
import assert from "node:assert/strict";
import { withServer } from "./helpers/server.ts";
import { demoConnection, eventually } from "./helpers/channels.ts";
import { contactListItemKey, contactListKey } from "../server/campaigns/contact_lists.ts";

Deno.test("contacts, the API and campaigns read '(11) 96666-0001' as 5511966660001 and refuse impossible numbers", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const conn = await demoConnection(admin);
    const companyId = server.demo!.companyId;

    const contact = await admin.post("/contacts", { name: "Ana Lima", number: "(11) 96666-0001" });
    assert.equal(contact.status, 200, JSON.stringify(contact.body));
    assert.equal(contact.body.number, "5511966660001");
    const impossible = await admin.post("/contacts", { name: "Zé", number: "(00) 1234-5678" });
    assert.deepEqual([impossible.status, impossible.body.fields?.number], [400, "Número inválido para o WhatsApp"]);
    const abroad = await admin.post("/contacts", { name: "John", number: "+1 (212) 555-1234" });
    assert.equal(abroad.body.number, "12125551234");

    const token = (await admin.get(`/whatsapp/${conn.id}`)).body.token;
    const api = (number: string) =>
      fetch(`${server.url}/api/messages/send`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ number, body: "Oi", openTicket: 0 }),
      }).then(async (r) => ({ status: r.status, body: await r.json() }));
    assert.equal((await api("(11) 96666-0001")).body.number, "5511966660001");
    assert.deepEqual([(await api("11966660001")).body.number], ["5511966660001"]);
    const refused = await api("+1 196 666 0001");
    assert.deepEqual([refused.status, refused.body.error], [400, "ERR_WAPP_INVALID_CONTACT"]);

    // A list stored before the rule, with the 11966660001 marked valid.
    await server.deps.kv.set(contactListKey(companyId, 900), { id: 900, name: "Antiga" });
    const items = [["Ana", "11966660001"], ["Bia", "5511966660002"], ["Caio", "5511966660003"]];
    for (const [i, [name, number]] of items.entries()) {
      await server.deps.kv.set(contactListItemKey(companyId, 900, i + 1), {
        id: i + 1, companyId, contactListId: 900, name, number, email: null, isWhatsappValid: true, createdAt: 0, updatedAt: 0,
      });
    }
    const created = await admin.post("/campaigns", {
      name: "Antiga",
      contactListId: 900,
      whatsappId: String(conn.id),
      scheduledAt: new Date(Date.now() + 100).toISOString(),
      message1: "Promo {{nome}}",
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    await eventually(async () => (await admin.get(`/campaigns/${created.body.id}`)).body.status === "FINALIZADA" || undefined, 20_000, "the campaign to finish");
    const report = (await admin.get(`/campaigns/${created.body.id}/report`)).body;
    assert.deepEqual([report.counts.delivered, report.counts.failed, report.counts.validContacts], [2, 1, 3]);
    const failed = (report.shipping as { number: string; deliveredAt: string | null; error: string | null }[]).find((r) => r.number === "11966660001")!;
    assert.deepEqual([failed.deliveredAt, failed.error], [null, "Número inválido para o WhatsApp"]);
    const outbox = (await admin.get(`/simulator/${conn.id}/outbox`)).body.messages as { to: string; body: string }[];
    assert.equal(outbox.filter((m) => m.body.startsWith("Promo")).length, 2);
    assert.ok(!outbox.some((m) => m.to === "11966660001"));
  }, { campaignTimeScale: 0 });
});
