/**
 * Ids a body names must be of the caller's company (issue #24, hostile input sweep): another
 * company's user id was stored as the owner of a tag or rating, a schedule's user and a
 * campaign's user. Every create and update now answers the catalogue's 404 and stores
 * nothing (server/api/company_refs.ts, one check shared by the handlers).
 */
import assert from "node:assert/strict";
import { makeContact } from "./helpers/fixtures.ts";
import { withServer } from "./helpers/server.ts";
import { createTenant } from "./helpers/tenants.ts";

const soon = () => new Date(Date.now() + 3600_000).toISOString();

Deno.test("another company's user, contact, queue and tag ids are refused with 404 on create and update", async (t) => {
  await withServer(async (server) => {
    const companyId = server.demo!.companyId;
    const admin = await server.login("admin@demo.local");
    const other = await createTenant(server, "Outra Ref");
    const theirUser = other.adminId;
    const ourAgent = server.demo!.logins.find((l) => l.email === "agent@demo.local")!.id;
    const contact = await makeContact(server, companyId, { name: "Ref Contato" });

    /** Sends, expects the 404 `code`, and proves `read` (the stored record) did not change. */
    const refused = async (label: string, send: () => Promise<{ status: number; body: { error?: string } }>, code: string, read?: () => Promise<unknown>) => {
      const before = read ? await read() : undefined;
      const answer = await send();
      assert.equal(answer.status, 404, `${label}: ${JSON.stringify(answer.body)}`);
      assert.equal(answer.body.error, code, label);
      if (read) assert.deepEqual(await read(), before, `${label}: stored record unchanged`);
    };

    await t.step("tags", async () => {
      const before = (await admin.get("/tags/list")).body;
      await refused("POST /tags", () => admin.post("/tags", { name: "Roubada", color: "#123456", userId: theirUser }), "ERR_NO_USER_FOUND");
      assert.deepEqual((await admin.get("/tags/list")).body, before, "no tag created");
      const tag = await admin.post("/tags", { name: "Nossa", color: "#123456" });
      assert.equal(tag.status, 200, JSON.stringify(tag.body));
      const read = async () => (await admin.get(`/tags/${tag.body.id}`)).body;
      await refused("PUT /tags/:id", () => admin.put(`/tags/${tag.body.id}`, { userId: theirUser }), "ERR_NO_USER_FOUND", read);
      assert.equal((await admin.put(`/tags/${tag.body.id}`, { name: "Nossa 2" })).status, 200, "an edit not naming a user still works");
    });

    await t.step("ratings", async () => {
      const body = { name: "Pesquisa", message: "Nota?", options: [{ name: "Boa", value: 1 }] };
      await refused("POST /ratings", () => admin.post("/ratings", { ...body, userId: theirUser }), "ERR_NO_USER_FOUND");
      const rating = await admin.post("/ratings", body);
      assert.equal(rating.status, 200, JSON.stringify(rating.body));
      const read = async () => (await admin.get(`/ratings/${rating.body.id}`)).body;
      await refused("PUT /ratings/:id", () => admin.put(`/ratings/${rating.body.id}`, { userId: theirUser }), "ERR_NO_USER_FOUND", read);
    });

    await t.step("schedules", async () => {
      const body = { body: "Lembrete de referência", contactId: contact.id, sendAt: soon() };
      // Named but not assigned (atribuirUser off) is refused too.
      await refused("POST /schedules user", () => admin.post("/schedules", { ...body, userId: theirUser }), "ERR_NO_USER_FOUND");
      await refused("POST /schedules assigned user", () => admin.post("/schedules", { ...body, atribuirUser: true, userId: theirUser }), "ERR_NO_USER_FOUND");
      await refused("POST /schedules contact", () => admin.post("/schedules", { ...body, contactId: 987_654 }), "ERR_NO_CONTACT_FOUND");
      await refused("POST /schedules queue", () => admin.post("/schedules", { ...body, queueId: 987_654 }), "ERR_NO_QUEUE_FOUND");
      await refused("POST /schedules connection", () => admin.post("/schedules", { ...body, whatsappId: 987_654 }), "ERR_NO_WAPP_FOUND");
      const schedule = await admin.post("/schedules", body);
      assert.equal(schedule.status, 200, JSON.stringify(schedule.body));
      const read = async () => (await admin.get(`/schedules/${schedule.body.id}`)).body;
      await refused("PUT /schedules/:id", () => admin.put(`/schedules/${schedule.body.id}`, { userId: theirUser }), "ERR_NO_USER_FOUND", read);
    });

    await t.step("campaigns", async () => {
      const conn = (await admin.get("/whatsapp")).body[0];
      const body = { name: "Campanha Ref", status: "INATIVA", contactListId: 1, whatsappId: String(conn.id), scheduledAt: soon(), message1: "Oi" };
      await refused("POST /campaigns user", () => admin.post("/campaigns", { ...body, userId: theirUser }), "ERR_NO_USER_FOUND");
      await refused("POST /campaigns queue", () => admin.post("/campaigns", { ...body, queueId: 987_654 }), "ERR_NO_QUEUE_FOUND");
      await refused("POST /campaigns tag", () => admin.post("/campaigns", { ...body, tagListId: 987_654 }), "ERR_NO_TAG_FOUND");
      const created = await admin.post("/campaigns", { ...body, userId: ourAgent });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      const read = async () => (await admin.get(`/campaigns/${created.body.id}`)).body;
      await refused("PUT /campaigns/:id", () => admin.put(`/campaigns/${created.body.id}`, { ...body, userId: theirUser }), "ERR_NO_USER_FOUND", read);
    });
  });
});
