/**
 * A campaign's group list (spec 002 §2.3, §3 groupListId; issue #36) through the simulator:
 * the members of one of the company's WhatsApp groups, taken when the campaign starts, get
 * the message after the contact list's entries; a member already in the list gets it once,
 * the connection's own number never; a group list alone is enough; the refusals.
 */
import assert from "node:assert/strict";
import { demoConnection, eventually } from "./helpers/channels.ts";
import { type Client, withServer } from "./helpers/server.ts";

const soon = () => new Date(Date.now() + 200).toISOString();

async function contact(admin: Client, name: string, number: string): Promise<number> {
  const r = await admin.post("/contacts", { name, number });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body.id;
}

Deno.test("campaigns: a group list sends to the group's members after the contact list, each once, never to the connection itself; alone it is enough", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const conn = await demoConnection(admin);
    const companyId = server.demo!.companyId;
    const outbox = async () => (await admin.get(`/simulator/${conn.id}/outbox`)).body.messages as Array<{ to: string; body: string }>;

    // A WhatsApp group made from the product, with a member the company has no contact for
    // and the phone itself (WhatsApp lists the creator among the participants).
    const ana = await contact(admin, "Ana Grupo", "5511911110001");
    const bruno = await contact(admin, "Bruno Grupo", "5511911110002");
    const made = await admin.post("/creatGroupAndTicket", {
      contactsAddGroup: [ana, bruno],
      titleGroup: "Clientes VIP",
      queueId: server.demo!.queueIds[0],
      whatsappId: conn.id,
      status: "open",
    });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    const groupId: number = made.body.contact.id;
    const phone = await server.deps.channels.simulator(companyId, conn.id);
    const own = (await admin.get(`/whatsapp/${conn.id}`)).body.number as string;
    assert.ok(own, "the connection knows its number");
    await phone.addGroupParticipants(made.body.contact.number, ["5511922224444", own]);

    // The dialog's choices: the company's groups only.
    const groups = (await admin.get("/contacts/list?isGroup=true")).body as Array<{ id: number; name: string }>;
    assert.deepEqual(groups.map((g) => [g.id, g.name]), [[groupId, "Clientes VIP"]]);

    // A contact list with one of the members and someone else.
    const list = await admin.post("/contact-lists", { name: "Lista e Grupo" });
    assert.equal(list.status, 200, JSON.stringify(list.body));
    for (const [name, number] of [["Bruno na Lista", "5511911110002"], ["Só na Lista", "5511933330001"]]) {
      const item = await admin.post("/contact-list-items", { contactListId: list.body.id, name, number });
      assert.equal(item.status, 200, JSON.stringify(item.body));
    }

    // Refusals: neither list (the §5 text), a group list that is not a group of the company.
    const base = { whatsappId: String(conn.id), scheduledAt: soon(), message1: "Oi {nome}" };
    const neither = await admin.post("/campaigns", { ...base, name: "Sem público", contactListId: "", groupListId: "" });
    assert.equal(neither.status, 400);
    assert.equal(neither.body.fields.contactListId, "A lista de contatos é obrigatória.");
    const notGroup = await admin.post("/campaigns", { ...base, name: "Não é grupo", groupListId: ana });
    assert.deepEqual([notGroup.status, notGroup.body.error], [404, "ERR_NO_CONTACT_FOUND"]);

    const both = await admin.post("/campaigns", { ...base, name: "Lista e grupo", contactListId: list.body.id, groupListId: groupId });
    assert.equal(both.status, 200, JSON.stringify(both.body));
    assert.equal(both.body.groupListId, groupId);
    await eventually(async () => (await admin.get(`/campaigns/${both.body.id}`)).body.status === "FINALIZADA" || undefined, 30_000, "the campaign to end");
    const sent = (await outbox()).filter((m) => m.body.startsWith("Oi "));
    const to = (number: string) => sent.filter((m) => m.to === number).map((m) => m.body);
    assert.deepEqual(to("5511933330001"), ["Oi Só na Lista"]);
    assert.deepEqual(to("5511911110002"), ["Oi Bruno na Lista"], "a member already in the list: the list's message, once");
    assert.deepEqual(to("5511911110001"), ["Oi Ana Grupo"], "named as the company's contact");
    assert.deepEqual(to("5511922224444"), ["Oi 5511922224444"], "no contact: the number");
    assert.deepEqual(to(own), [], "never the phone itself");
    assert.equal(sent.length, 4);
    const report = (await admin.get(`/campaigns/${both.body.id}/report`)).body;
    assert.equal(report.counts.validContacts, 4);
    assert.equal(report.counts.delivered, 4);
    assert.deepEqual(report.campaign.groupList, { id: groupId, name: "Clientes VIP" });

    // A group list alone: the members, the list left empty.
    const alone = await admin.post("/campaigns", { ...base, name: "Só o grupo", message1: "Grupo {nome}", groupListId: groupId });
    assert.equal(alone.status, 200, JSON.stringify(alone.body));
    assert.equal(alone.body.contactListId, null);
    await eventually(async () => (await admin.get(`/campaigns/${alone.body.id}`)).body.status === "FINALIZADA" || undefined, 30_000, "the group-only campaign to end");
    const groupOnly = (await outbox()).filter((m) => m.body.startsWith("Grupo "));
    assert.deepEqual(groupOnly.map((m) => m.to).sort(), ["5511911110001", "5511911110002", "5511922224444"]);
    const listed = (await admin.get("/campaigns/")).body.records.find((r: { id: number }) => r.id === alone.body.id);
    assert.deepEqual([listed.contactList, listed.groupList], [null, { id: groupId, name: "Clientes VIP" }]);
  }, { campaignTimeScale: 0.001 });
});
