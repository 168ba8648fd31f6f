/**
 * Campaigns through the simulator (issue #19): a 200-contact campaign with 3 variants and
 * confirmations (intervals shortened), stop and resume, permission and plan gates, tenant
 * isolation, settings.
 */
import assert from "node:assert/strict";
import { withServer } from "./helpers/server.ts";
import { seedContactList } from "./helpers/campaign_lists.ts";
import { createTenant } from "./helpers/tenants.ts";
import { WsClient } from "./helpers/ws.ts";
import { mediaFilePath } from "../actors/messages/media_files.ts";
import { simulatorLedgerKey, type SimulatorLedgerEntry } from "../server/channels/simulator.ts";
import { eventually } from "./helpers/channels.ts";

const soon = () => new Date(Date.now() + 200).toISOString();

Deno.test("campaigns: variants with confirmations, stop and resume, gates, isolation", async (t) => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const me = (await admin.get("/auth/me")).body;
    const companyId: number = me.companyId ?? me.user?.companyId ?? server.demo!.companyId;
    const conn = (await admin.get("/whatsapp")).body.find((w: { name: string }) => w.name === "WhatsApp Demo");
    const outbox = async () => (await admin.get(`/simulator/${conn.id}/outbox`)).body.messages as Array<{ to: string; body: string }>;

    await t.step("settings: §9 defaults, saved, duplicate shortcut refused", async () => {
      const read = await admin.get("/campaign-settings");
      assert.deepEqual(read.body.find((r: { key: string }) => r.key === "messageInterval"), { key: "messageInterval", value: "240" });
      const saved = await admin.post("/campaign-settings", { settings: { messageInterval: 5, longerIntervalAfter: 10, greaterInterval: 50, variables: [{ key: "loja", value: "Centro" }] } });
      assert.equal(saved.status, 200, JSON.stringify(saved.body));
      const dup = await admin.post("/campaign-settings", { settings: { variables: [{ key: "a", value: "1" }, { key: "A", value: "2" }] } });
      assert.equal(dup.status, 400);
    });

    await t.step("200 contacts, 3 variants, confirmations: each gets one confirmation, the positive ones the message", async () => {
      const numbers = await seedContactList(server.deps.kv, companyId, 1, 210, 21); // 10 invalid
      assert.equal(numbers.length, 200);
      const bad = await admin.post("/campaigns", { name: "X", contactListId: "", whatsappId: "", scheduledAt: "" });
      assert.equal(bad.status, 400);
      const created = await admin.post("/campaigns", {
        name: "Promo",
        contactListId: 1,
        whatsappId: String(conn.id),
        scheduledAt: soon(),
        confirmation: true,
        message1: "A {primeiroNome} {loja}",
        message2: "B {nome}",
        message3: "C {numero}",
        confirmationMessage1: "Quer? A",
        confirmationMessage2: "Quer? B",
        confirmationMessage3: "Quer? C",
      });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      assert.equal(created.body.status, "PROGRAMADA");
      const id = created.body.id;
      await eventually(async () => (await admin.get(`/campaigns/${id}`)).body.status === "FINALIZADA" || undefined, 60_000, "the confirmations to go out");
      const sent = await outbox();
      const asks = sent.filter((m) => m.body.startsWith("Quer?"));
      assert.equal(asks.length, 200);
      assert.equal(new Set(asks.map((m) => m.to)).size, 200);
      const variantsSeen = new Set(asks.map((m) => m.body));
      assert.equal(variantsSeen.size, 3, "the three variants are used");
      // Half answer yes (in several spellings), the rest something else.
      const yes = numbers.slice(0, 100);
      const spellings = ["1", "Sim", "SÍM!", "yes"];
      for (const [i, n] of yes.entries()) {
        const r = await admin.post(`/simulator/${conn.id}/inbound`, { from: n, name: `Cliente ${i}`, body: spellings[i % 4] });
        assert.equal(r.status, 200);
      }
      for (const n of numbers.slice(100, 110)) await admin.post(`/simulator/${conn.id}/inbound`, { from: n, name: "x", body: "não" });
      const report = await eventually(async () => {
        const r = (await admin.get(`/campaigns/${id}/report`)).body;
        return r.counts.delivered === 100 ? r : undefined;
      }, 60_000, "the confirmed messages");
      assert.deepEqual(report.counts, { validContacts: 200, confirmationRequested: 200, confirmed: 100, delivered: 100, failed: 0, pending: 100 });
      const messages = (await outbox()).filter((m) => !m.body.startsWith("Quer?") && yes.includes(m.to));
      assert.equal(messages.length, 100);
      assert.equal(new Set(messages.map((m) => m.to)).size, 100);
      const one = messages.find((m) => m.body.startsWith("A "));
      if (one) assert.match(one.body, /^A Cliente Centro$/);
      // The outbox matches the report exactly; a second "sim" does not send again.
      await admin.post(`/simulator/${conn.id}/inbound`, { from: yes[0], name: "x", body: "sim" });
      await new Promise((r) => setTimeout(r, 300));
      assert.equal((await outbox()).filter((m) => m.to === yes[0] && /^(A|B|C|Quer\?) /.test(m.body)).length, 2);
    });

    await t.step("stop and resume: every contact exactly once", async () => {
      await admin.post("/campaign-settings", { settings: { messageInterval: 5, longerIntervalAfter: 10, greaterInterval: 50, variables: [] } });
      const numbers = await seedContactList(server.deps.kv, companyId, 2, 300);
      const created = await admin.post("/campaigns", { name: "Stop", contactListId: 2, whatsappIds: [conn.id], scheduledAt: soon(), message1: "Oi {nome}" });
      const id = created.body.id;
      await eventually(async () => {
        const r = (await admin.get(`/campaigns/${id}/report`)).body;
        return r.counts.delivered >= 20 ? r : undefined;
      }, 30_000, "some sends");
      const stopped = await admin.post(`/campaigns/${id}/cancel`);
      assert.equal(stopped.status, 200, JSON.stringify(stopped.body));
      assert.equal(stopped.body.status, "CANCELADA");
      assert.equal((await admin.post(`/campaigns/${id}/cancel`)).status, 409);
      const at = (await admin.get(`/campaigns/${id}/report`)).body.counts.delivered;
      await new Promise((r) => setTimeout(r, 300));
      assert.equal((await admin.get(`/campaigns/${id}/report`)).body.counts.delivered, at, "nothing sent while stopped");
      assert.ok(at < 300);
      const resumed = await admin.post(`/campaigns/${id}/restart`);
      assert.equal(resumed.status, 200);
      await eventually(async () => (await admin.get(`/campaigns/${id}`)).body.status === "FINALIZADA" || undefined, 60_000, "the end");
      const got = (await outbox()).filter((m) => numbers.includes(m.to));
      assert.equal(got.length, 300);
      assert.equal(new Set(got.map((m) => m.to)).size, 300);
      const report = (await admin.get(`/campaigns/${id}/report`)).body;
      assert.equal(report.counts.delivered, 300);
      assert.equal(report.total, 300, "every contact has its shipping row (the report pages them)");
      // A finished campaign is not editable.
      assert.equal((await admin.put(`/campaigns/${id}`, { name: "Stop", contactListId: 2, whatsappId: String(conn.id), scheduledAt: soon(), message1: "x" })).status, 409);
      const ledger = await server.deps.kv.get<SimulatorLedgerEntry>(simulatorLedgerKey(companyId, conn.id, `cmp-${companyId}-${id}-1-m`));
      assert.equal(ledger.value?.repeats, 0);
    });

    await t.step("openTicket: each message stored in the contact's ticket like an agent's, live, with status, user, queue and tag", async () => {
      const agent = ((await admin.get("/users/list")).body as Array<{ id: number; email: string }>).find((u) => u.email === "agent@demo.local")!;
      const queue = ((await admin.get("/queue")).body as Array<{ id: number }>)[0];
      const tag = (await admin.post("/tags", { name: "Campanha X", color: "#123456" })).body;
      assert.ok(queue?.id && tag?.id, JSON.stringify(tag));
      const numbers = await seedContactList(server.deps.kv, companyId, 3, 5);
      const ws = new WsClient(admin.baseUrl, { token: admin.token });
      await ws.hello();
      const created = await admin.post("/campaigns", {
        name: "Com ticket",
        contactListId: 3,
        whatsappId: String(conn.id),
        scheduledAt: soon(),
        message1: "Olá {primeiroNome}",
        openTicket: true,
        statusTicket: "open",
        userId: agent.id,
        queueId: queue.id,
        tagListId: tag.id,
      });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      await eventually(async () => (await admin.get(`/campaigns/${created.body.id}`)).body.status === "FINALIZADA" || undefined, 30_000, "the end");
      // Live in the inbox: the ticket's update carries the message as its last one, sent by us.
      await ws.event(`company-${companyId}-ticket`, (d) => (d.ticket as { lastMessage?: string; lastFromMe?: boolean })?.lastMessage === "Olá Cliente" && (d.ticket as { lastFromMe: boolean }).lastFromMe);
      await ws.close();
      for (const number of numbers) {
        const contact = (await admin.get(`/contacts?searchParam=${number}`)).body.contacts[0];
        assert.ok(contact, `contact ${number}`);
        const tickets = (await admin.get(`/tickets?contactId=${contact.id}&showAll=true&status=open`)).body.tickets as Array<{ id: number; contactId: number; status: string; userId: number; queueId: number; tags?: Array<{ id: number }>; tagIds?: number[] }>;
        const ticket = tickets.find((x) => x.contactId === contact.id)!;
        assert.ok(ticket, `ticket of ${number}: ${JSON.stringify(tickets)}`);
        assert.equal(ticket.userId, agent.id);
        assert.equal(ticket.queueId, queue.id);
        const tagIds = ticket.tagIds ?? ticket.tags?.map((x) => x.id) ?? [];
        assert.ok(tagIds.includes(tag.id), `tag on ${JSON.stringify(ticket)}`);
        const msgs = (await admin.get(`/messages/${ticket.id}`)).body.messages as Array<{ body: string; fromMe: boolean; ack: number; providerId: string | null }>;
        const mine = msgs.filter((x) => x.body === "Olá Cliente");
        assert.equal(mine.length, 1, JSON.stringify(msgs));
        assert.ok(mine[0].fromMe && mine[0].ack >= 1 && mine[0].providerId);
      }
    });

    await t.step("media: the file goes out with each message; a missing file fails the rows instead of retrying", async () => {
      const run = async (listId: number, dropFile: boolean) => {
        const numbers = await seedContactList(server.deps.kv, companyId, listId, 4);
        const base = { name: `Mídia ${listId}`, contactListId: listId, whatsappId: String(conn.id), message1: "Veja {nome}" };
        const created = await admin.post("/campaigns", { ...base, status: "INATIVA", scheduledAt: soon() });
        assert.equal(created.status, 200, JSON.stringify(created.body));
        const form = new FormData();
        form.append("file", new File([new Uint8Array([0x25, 0x50, 0x44, 0x46])], "folheto.pdf", { type: "application/pdf" }));
        const up = await admin.post(`/campaigns/${created.body.id}/media-upload`, form);
        assert.equal(up.status, 200, JSON.stringify(up.body));
        if (dropFile) await Deno.remove(mediaFilePath(server.deps.config.dataDir, companyId, up.body.mediaPath));
        const started = await admin.put(`/campaigns/${created.body.id}`, { ...base, status: "PROGRAMADA", scheduledAt: soon() });
        assert.equal(started.status, 200, JSON.stringify(started.body));
        await eventually(async () => (await admin.get(`/campaigns/${created.body.id}`)).body.status === "FINALIZADA" || undefined, 30_000, "the end");
        return { numbers, report: (await admin.get(`/campaigns/${created.body.id}/report`)).body };
      };
      const sent = await run(4, false);
      const got = (await admin.get(`/simulator/${conn.id}/outbox`)).body.messages as Array<{ to: string; filename?: string; mediaType: string }>;
      const withFile = got.filter((m) => sent.numbers.includes(m.to));
      assert.equal(withFile.length, 4);
      assert.ok(withFile.every((m) => m.filename === "folheto.pdf" && m.mediaType !== "chat"), JSON.stringify(withFile));
      assert.equal(sent.report.counts.delivered, 4);
      const missing = await run(5, true);
      assert.equal(missing.report.counts.failed, 4);
      assert.equal(missing.report.counts.delivered, 0);
      assert.ok(missing.report.shipping.every((r: { error: string | null }) => /missing/.test(r.error ?? "")));
      const none = ((await admin.get(`/simulator/${conn.id}/outbox`)).body.messages as Array<{ to: string }>).filter((m) => missing.numbers.includes(m.to));
      assert.equal(none.length, 0);
    });

    await t.step("tenant isolation: a real second company's admin gets 404 on every route with our ids, lists never mix", async () => {
      const other = await createTenant(server, "Outra Loja");
      const ours = (await admin.get("/campaigns")).body.records as Array<{ id: number; name: string }>;
      assert.ok(ours.length >= 2);
      const body = { name: "Roubo", contactListId: 1, whatsappId: "1", scheduledAt: soon(), message1: "x" };
      const file = () => {
        const form = new FormData();
        form.append("file", new File(["x"], "x.txt", { type: "text/plain" }));
        return form;
      };
      // Ids are per company: ask before they have a campaign of their own.
      for (const c of ours) {
        const tries: Array<[string, Promise<{ status: number }>]> = [
          ["GET", other.admin.get(`/campaigns/${c.id}`)],
          ["PUT", other.admin.put(`/campaigns/${c.id}`, body)],
          ["cancel", other.admin.post(`/campaigns/${c.id}/cancel`)],
          ["restart", other.admin.post(`/campaigns/${c.id}/restart`)],
          ["media", other.admin.post(`/campaigns/${c.id}/media-upload`, file())],
          ["media delete", other.admin.delete(`/campaigns/${c.id}/media-upload`)],
          ["report", other.admin.get(`/campaigns/${c.id}/report`)],
          ["DELETE", other.admin.delete(`/campaigns/${c.id}`)],
        ];
        for (const [what, answer] of tries) assert.equal((await answer).status, 404, `${what} /campaigns/${c.id} from the other company`);
        // Nothing of ours changed.
        const still = await admin.get(`/campaigns/${c.id}`);
        assert.equal(still.status, 200);
        assert.equal(still.body.name, c.name);
      }
      assert.equal((await admin.get("/campaigns")).body.records.length, ours.length);
      // The other company has its own list 1 and its own campaign (ids may coincide with ours).
      await seedContactList(server.deps.kv, other.companyId, 1, 3);
      const theirs = await other.admin.post("/campaigns", { name: "Deles", status: "INATIVA", contactListId: 1, whatsappId: "1", scheduledAt: soon(), message1: "Oi" });
      assert.equal(theirs.status, 200, JSON.stringify(theirs.body));
      const theirList = (await other.admin.get("/campaigns")).body.records as Array<{ id: number; name: string; companyId: number }>;
      assert.deepEqual(theirList.map((c) => c.name), ["Deles"]);
      assert.ok(!(await admin.get("/campaigns")).body.records.some((c: { name: string }) => c.name === "Deles"));
      assert.equal((await admin.get("/campaigns?searchParam=Deles")).body.records.length, 0);
      // Their report counts their list (3), not ours with the same id (200 valid).
      assert.equal((await other.admin.get(`/campaigns/${theirs.body.id}/report`)).body.counts.validContacts, 3);
      // Their settings are their own: ours saved messageInterval 5.
      const settings = (await other.admin.get("/campaign-settings")).body as Array<{ key: string; value: string }>;
      assert.equal(settings.find((r) => r.key === "messageInterval")?.value, "240");
    });

    await t.step("gates: agent 403, plan without useCampaigns 403, other company 404", async () => {
      const agent = await server.login("agent@demo.local");
      assert.equal((await agent.get("/campaigns")).status, 403);
      const list = await admin.get("/campaigns?searchParam=promo&pageNumber=1");
      assert.equal(list.status, 200);
      assert.equal(list.body.records.length, 1);
      assert.equal(typeof list.body.hasMore, "boolean");
      const supervisor = await server.login("supervisor@demo.local");
      assert.equal((await supervisor.get("/campaigns")).status, 200);
      const id = list.body.records[0].id;
      // Another company.
      const sup = await server.login("super@balcao.local");
      assert.equal((await sup.get(`/campaigns/${id}`)).status === 404 || (await sup.get(`/campaigns/${id}`)).status === 403, true);
      // Plan flag off.
      const plan = (await sup.get(`/plans/${server.demo!.planId}`)).body;
      const off = await sup.put(`/plans/${server.demo!.planId}`, { ...plan, useCampaigns: false });
      assert.equal(off.status, 200, JSON.stringify(off.body));
      const r = await admin.get("/campaigns");
      assert.equal(r.status, 403);
      assert.equal(r.body.error, "ERR_PLAN_FEATURE");
    });
  }, { campaignTimeScale: 0.001 });
});
