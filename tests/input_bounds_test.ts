/**
 * Fields had no max length, and a value over KV's 64 KiB answered 500 (issue #24, hostile
 * input sweep): TagInput name and color, WhatsappInput's messages, UserUpdate.queueIds with
 * 100k items. Each is now bounded (domain/text.ts MAX) and answers 400 'Too Long!' in the
 * catalogue's shape, the stored record unchanged.
 */
import assert from "node:assert/strict";
import { withServer } from "./helpers/server.ts";
import { MAX_SEND_FILES } from "../domain/message.ts";
import { freshNumber, inboundText, receive } from "./helpers/messages.ts";

/** Over every field's max and over KV's 64 KiB value limit, under the 1 MB body limit (body_limit_test.ts). */
const HUGE = "a".repeat(100 * 1024);

Deno.test("over-long fields and lists answer 400 Too Long! and change nothing", async (t) => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const agentId = server.demo!.logins.find((l) => l.email === "agent@demo.local")!.id;
    const tooLong = async (label: string, answer: Promise<{ status: number; body: { error?: string; fields?: Record<string, string> } }>, field: string) => {
      const { status, body } = await answer;
      assert.equal(status, 400, `${label}: ${JSON.stringify(body).slice(0, 200)}`);
      assert.equal(body.error, "ERR_VALIDATION", label);
      assert.equal(body.fields?.[field], "Too Long!", label);
    };

    await t.step("tags", async () => {
      await tooLong("POST name", admin.post("/tags", { name: HUGE }), "name");
      await tooLong("POST color", admin.post("/tags", { name: "Cor", color: HUGE }), "color");
      const tag = (await admin.post("/tags", { name: "Limite", color: "#112233" })).body;
      await tooLong("PUT name", admin.put(`/tags/${tag.id}`, { name: HUGE }), "name");
      assert.equal((await admin.get(`/tags/${tag.id}`)).body.name, "Limite");
      assert.equal((await admin.post("/tags", { name: "n".repeat(200) })).status, 200, "200 characters still fit");
    });

    await t.step("connections", async () => {
      const conn = (await admin.get("/whatsapp")).body[0];
      for (const field of ["greetingMessage", "complationMessage", "outOfHoursMessage", "ratingMessage", "closeMessage"]) {
        await tooLong(`PUT ${field}`, admin.put(`/whatsapp/${conn.id}`, { name: conn.name, [field]: HUGE }), field);
      }
      await tooLong("PUT queueIds", admin.put(`/whatsapp/${conn.id}`, { name: conn.name, queueIds: Array.from({ length: 100_000 }, () => 1) }), "queueIds");
      assert.equal((await admin.get(`/whatsapp/${conn.id}`)).body.greetingMessage, conn.greetingMessage);
    });

    await t.step("schemas walked by tests/input_limits_test.ts: a login, a contact, a ticket's files", async () => {
      const login = await admin.post("/auth/login", { email: "admin@demo.local", password: HUGE });
      assert.equal(login.status, 400, "a 100 KB password is refused before it is hashed (and counts as no failure)");
      assert.equal(login.body.fields?.password, "Too Long!");
      await tooLong("POST /auth/login e-mail", admin.post("/auth/login", { email: `${"a".repeat(250)}@x.com`, password: "x" }), "email");
      const extraInfo = Array.from({ length: 101 }, (_, i) => ({ name: `campo ${i}`, value: "v" }));
      await tooLong("POST /contacts extraInfo", admin.post("/contacts", { name: "Muitos campos", number: "5511912340000", extraInfo }), "extraInfo");
      await tooLong("POST /contacts number", admin.post("/contacts", { name: "Número", number: "1".repeat(200) }), "number");
      const { ticketId } = await receive(server, inboundText(freshNumber(), "oi"));
      const form = new FormData();
      for (let i = 0; i <= MAX_SEND_FILES; i++) form.append("medias", new File(["x"], `f${i}.txt`, { type: "text/plain" }));
      const sent = await admin.post(`/messages/${ticketId}`, form);
      assert.equal(sent.status, 400);
      assert.equal(sent.body.fields?.medias, `At most ${MAX_SEND_FILES} files`);
      assert.equal((await admin.get(`/messages/${ticketId}`)).body.messages.length, 1, "no file was sent");
    });

    await t.step("users", async () => {
      const before = (await admin.get(`/users/${agentId}`)).body;
      await tooLong("PUT queueIds", admin.put(`/users/${agentId}`, { queueIds: Array.from({ length: 100_000 }, () => 1) }), "queueIds");
      assert.deepEqual((await admin.get(`/users/${agentId}`)).body, before);
    });
  });
});
