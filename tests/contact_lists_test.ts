/**
 * Contact lists over HTTP and WebSocket (issue #19): CRUD with the validation texts, import of
 * .csv and .xlsx, add from tags and from contacts, the background number check (paced, never a
 * burst), the reader the campaign engine uses, gates, tenant isolation and live events.
 */
import assert from "node:assert/strict";
import ExcelJS from "exceljs";
import { listItems } from "../actors/contact_lists/mod.ts";
import { kvContactLists } from "../server/campaigns/contact_lists.ts";
import { withSockets } from "./helpers/ws.ts";
import { createTenant } from "./helpers/tenants.ts";
import { eventually } from "./helpers/channels.ts";

function upload(name: string, content: BlobPart): FormData {
  const form = new FormData();
  form.append("file", new File([content], name));
  return form;
}

type Item = { id: number; name: string; number: string; email: string | null; isWhatsappValid: boolean | null };

Deno.test("contact lists: CRUD, import, add from tags/contacts, paced number check, gates, isolation, events", async (t) => {
  await withSockets(async (server, pool) => {
    const admin = await server.login("admin@demo.local");
    const companyId = server.demo!.companyId;
    const ws = await pool.connect(admin.token!);
    const items = async (listId: number, q = "") =>
      (await admin.get(`/contact-list-items?contactListId=${listId}&searchParam=${q}`)).body.records as Item[];
    let listId = 0;

    await t.step("POST/PUT/GET/DELETE /contact-lists with the name rule and events", async () => {
      const empty = await admin.post("/contact-lists", { name: "" });
      assert.equal(empty.status, 400);
      assert.equal(empty.body.fields.name, "Required");
      assert.equal((await admin.post("/contact-lists", { name: "A" })).body.fields.name, "Too Short!");
      const created = await admin.post("/contact-lists", { name: "Clientes VIP" });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      listId = created.body.id;
      assert.equal(created.body.contactsCount, 0);
      await ws.event(`company-${companyId}-ContactList`, (d) => d.action === "create" && (d.record as { id: number }).id === listId);
      const renamed = await admin.put(`/contact-lists/${listId}`, { name: "Clientes Ouro" });
      assert.equal(renamed.body.name, "Clientes Ouro");
      await ws.event(`company-${companyId}-ContactList`, (d) => d.action === "update");
      const other = await admin.post("/contact-lists", { name: "Descartável" });
      const page = await admin.get("/contact-lists?searchParam=ouro&pageNumber=1");
      assert.deepEqual(page.body.records.map((r: { name: string }) => r.name), ["Clientes Ouro"]);
      assert.equal(page.body.count, 1);
      assert.equal(page.body.hasMore, false);
      assert.equal((await admin.get("/contact-lists/list")).body.length, 2);
      await admin.post("/contact-list-items", { contactListId: other.body.id, name: "Some Dia", number: "5511911112222" });
      assert.equal((await admin.delete(`/contact-lists/${other.body.id}`)).status, 200);
      await ws.event(`company-${companyId}-ContactList`, (d) => d.action === "delete" && d.id === other.body.id);
      assert.equal((await admin.get(`/contact-lists/${other.body.id}`)).status, 404);
      assert.equal((await admin.get(`/contact-list-items?contactListId=${other.body.id}`)).status, 404);
    });

    await t.step("items: POST/PUT/DELETE with texts, duplicates refused, events", async () => {
      const bad = await admin.post("/contact-list-items", { contactListId: listId, name: "Jo", number: "12", email: "x@" });
      assert.equal(bad.status, 400);
      assert.equal(bad.body.fields.number, "Too Short!");
      assert.equal(bad.body.fields.email, "Invalid email");
      const one = await admin.post("/contact-list-items", { contactListId: listId, name: "Ana Souza", number: "+55 (11) 98888-0001", email: "Ana@X.com" });
      assert.equal(one.status, 200, JSON.stringify(one.body));
      assert.deepEqual([one.body.number, one.body.email], ["5511988880001", "ana@x.com"]);
      await ws.event(`company-${companyId}-ContactListItem`, (d) => d.action === "create");
      const dup = await admin.post("/contact-list-items", { contactListId: listId, name: "Outra", number: "5511988880001" });
      assert.equal(dup.status, 409);
      const edited = await admin.put(`/contact-list-items/${one.body.id}`, { name: "Ana S." });
      assert.deepEqual([edited.body.name, edited.body.number], ["Ana S.", "5511988880001"]);
      const gone = await admin.post("/contact-list-items", { contactListId: listId, name: "Apagar", number: "5511988880002" });
      assert.equal((await admin.delete(`/contact-list-items/${gone.body.id}`)).status, 200);
      await ws.event(`company-${companyId}-ContactListItem`, (d) => d.action === "delete" && d.id === gone.body.id);
      assert.equal((await admin.get(`/contact-list-items/${gone.body.id}`)).status, 404);
    });

    await t.step("import .csv and .xlsx with the contacts parser; repeats skipped", async () => {
      const csv = "Nome;Telefone;Email\nBeto Lima;5511988880003;beto@x.com\nX;5511988880004;\nCida Reis;5511988880001;\n";
      const r = await admin.post(`/contact-lists/${listId}/upload`, upload("lista.csv", csv));
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.deepEqual([r.body.valid, r.body.invalid, r.body.created, r.body.duplicated], [2, 1, 1, 1]);
      assert.equal(r.body.errors[0].message, "Too Short!");
      const workbook = new ExcelJS.Workbook();
      const sheet = workbook.addWorksheet("Lista");
      sheet.addRow(["Nome", "Telefone"]);
      sheet.addRow(["Dora Melo", 5511988880005]);
      sheet.addRow(["Edu Alves", "5511988880006"]);
      const x = await admin.post(`/contact-lists/${listId}/upload`, upload("lista.xlsx", new Uint8Array(await workbook.xlsx.writeBuffer())));
      assert.deepEqual([x.body.valid, x.body.created], [2, 2]);
      const wrong = await admin.post(`/contact-lists/${listId}/upload`, upload("lista.txt", csv));
      assert.equal(wrong.status, 400);
      const noCols = await admin.post(`/contact-lists/${listId}/upload`, upload("l.csv", "Quem\nAna\n"));
      assert.equal(noCols.body.message, "O arquivo precisa das colunas Nome e Telefone");
      assert.deepEqual((await items(listId)).map((i) => i.name), ["Ana S.", "Beto Lima", "Dora Melo", "Edu Alves"]);
      assert.deepEqual((await items(listId, "dora")).map((i) => i.number), ["5511988880005"]);
    });

    await t.step("add from contacts and from tags (contacts of tagged tickets)", async () => {
      const conn = (await admin.get("/whatsapp")).body[0];
      await admin.post(`/simulator/${conn.id}/inbound`, { from: "5511977770001", name: "Fábio Tag", body: "oi" });
      const ticket = await eventually(async () => (await admin.get("/tickets?status=pending&showAll=true")).body.tickets
        ?.find((tk: { contact: { number: string } }) => tk.contact.number === "5511977770001"), 5000, "the inbound ticket");
      const tag = await admin.post("/tags", { name: "Quente", color: "#ff0000" });
      assert.equal((await admin.put(`/ticket-tags/${ticket.id}/${tag.body.id}`)).status, 200);
      const byTag = await admin.post(`/contact-lists/${listId}/add-tags`, { tags: [tag.body.id] });
      assert.deepEqual([byTag.body.found, byTag.body.created], [1, 1], JSON.stringify(byTag.body));
      const contact = await admin.post("/contacts", { name: "Gil Contato", number: "5511977770002" });
      const byContact = await admin.post(`/contact-lists/${listId}/add-contacts`, { contactIds: [contact.body.id, ticket.contact.id] });
      assert.deepEqual([byContact.body.created, byContact.body.duplicated], [1, 1]);
      assert.equal((await admin.post(`/contact-lists/${listId}/add-tags`, { tags: [] })).status, 400);
    });

    await t.step("numbers are checked in the background; the engine's reader skips invalid ones", async () => {
      // A number no account can have is refused at once (#41); a possible one waits for the check.
      const impossible = await admin.post("/contact-list-items", { contactListId: listId, name: "Sem Zap", number: "123456789" });
      assert.deepEqual([impossible.status, impossible.body.fields?.number], [400, "Número inválido para o WhatsApp"]);
      assert.equal((await admin.post("/contact-list-items", { contactListId: listId, name: "Sem Zap", number: "23456789" })).status, 200);
      const all = await eventually(async () => {
        const rows = await items(listId);
        return rows.every((i) => i.isWhatsappValid !== null) ? rows : undefined;
      }, 10_000, "every number checked");
      assert.deepEqual(all.filter((i) => !i.isWhatsappValid).map((i) => i.name), ["Sem Zap"]);
      await ws.event(`company-${companyId}-ContactListItem`, (d) => d.action === "update" && (d.record as Item).isWhatsappValid === false);
      const reader = await listItems(server.deps.system, companyId, listId);
      assert.equal(reader.length, all.length - 1);
      assert.deepEqual(reader.map((i) => i.id), [...reader.map((i) => i.id)].sort((a, b) => a - b));
      // The engine's KV read of the same records (server/campaigns/contact_lists.ts) agrees.
      const source = kvContactLists(server.deps.kv, server.deps.system);
      assert.equal(await source.name(companyId, listId), "Clientes Ouro");
      assert.equal(await source.validCount(companyId, listId), reader.length);
      assert.deepEqual((await source.entriesAfter(companyId, listId, 0, 1000)).map((e) => e.id), all.map((i) => i.id));
      const row = (await admin.get(`/contact-lists/${listId}`)).body;
      assert.deepEqual([row.contactsCount, row.pendingCount, row.invalidCount], [all.length, 0, 1]);
    });

    await t.step("the check takes the connection's pacing slots: never a burst", async () => {
      // Every slot is pushed 300 ms after the previous one (jitter at its maximum).
      server.deps.channels.configure({ pacing: { simulator: { perMinute: 6000, jitterMs: 300 } }, random: () => 0.999 });
      const paced = await admin.post("/contact-lists", { name: "Pacing" });
      const csv = "Nome;Telefone\n" + [1, 2, 3, 4, 5, 6].map((i) => `Pessoa ${i};551196666000${i}`).join("\n");
      const t0 = Date.now();
      await admin.post(`/contact-lists/${paced.body.id}/upload`, upload("p.csv", csv));
      await new Promise((r) => setTimeout(r, 700));
      const early = (await items(paced.body.id)).filter((i) => i.isWhatsappValid !== null).length;
      assert.ok(early <= 3, `${early} numbers checked within 700 ms at one per 300 ms`);
      const done = await eventually(async () => {
        const rows = await admin.get(`/contact-lists/${paced.body.id}`);
        return rows.body.pendingCount === 0 ? rows.body : undefined;
      }, 10_000, "the paced checks");
      assert.equal(done.contactsCount, 6);
      const times = (await admin.get(`/contact-list-items?contactListId=${paced.body.id}`)).body.records
        .map((i: { updatedAt: number }) => i.updatedAt).sort((a: number, b: number) => a - b);
      for (let i = 1; i < times.length; i++) assert.ok(times[i] - times[i - 1] >= 250, `checks ${times[i] - times[i - 1]} ms apart`);
      assert.ok(Date.now() - t0 >= 1500);
      server.deps.channels.configure({ pacing: { simulator: { perMinute: 6000, jitterMs: 0 } }, random: Math.random });
    });

    await t.step("gates: agent 403, supervisor 200, plan without useCampaigns 403", async () => {
      const agent = await server.login("agent@demo.local");
      assert.equal((await agent.get("/contact-lists")).status, 403);
      assert.equal((await agent.get(`/contact-list-items?contactListId=${listId}`)).status, 403);
      assert.equal((await agent.post("/contact-lists", { name: "Nope" })).status, 403);
      const supervisor = await server.login("supervisor@demo.local");
      assert.equal((await supervisor.get("/contact-lists")).status, 200);
      const tenant = await createTenant(server, "Outra Loja");
      // Tenant isolation: our ids are 404 for the other company, and its lists are its own.
      assert.equal((await tenant.admin.get(`/contact-lists/${listId}`)).status, 404);
      assert.equal((await tenant.admin.get(`/contact-list-items?contactListId=${listId}`)).status, 404);
      const ourItem = (await items(listId))[0];
      assert.equal((await tenant.admin.put(`/contact-list-items/${ourItem.id}`, { name: "Roubo" })).status, 404);
      assert.equal((await tenant.admin.delete(`/contact-list-items/${ourItem.id}`)).status, 404);
      assert.equal((await tenant.admin.delete(`/contact-lists/${listId}`)).status, 404);
      assert.equal((await tenant.admin.get("/contact-lists")).body.count, 0);
      assert.equal((await admin.get(`/contact-lists/${listId}`)).status, 200);
      const sup = await server.login("super@balcao.local");
      const plan = (await sup.get(`/plans/${server.demo!.planId}`)).body;
      assert.equal((await sup.put(`/plans/${server.demo!.planId}`, { ...plan, useCampaigns: false })).status, 200);
      const off = await admin.get("/contact-lists");
      assert.equal(off.status, 403);
      assert.equal(off.body.error, "ERR_PLAN_FEATURE");
    });
  });
});
