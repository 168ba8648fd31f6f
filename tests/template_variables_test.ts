/**
 * Issue #41, bug 1 beyond quick replies: the connection's greeting (the bot), a scheduled
 * message and the external API fill the same variables, in the new syntax and the old one.
 */
import assert from "node:assert/strict";
import { whatsapps } from "../actors/whatsapps/collection.ts";
import { withServer } from "./helpers/server.ts";
import { eventually } from "./helpers/channels.ts";
import { makeContact } from "./helpers/fixtures.ts";

Deno.test("greeting, schedule and external API texts reach the customer with {{nome}}, {{primeiroNome}}, {nome} and {{name}} filled", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const companyId = server.demo!.companyId;
    const conn = (await whatsapps.in(server.deps.system, companyId).list()).find((w) => w.name === "WhatsApp Demo")!;
    const outbox = async (to: string) =>
      ((await admin.get(`/simulator/${conn.id}/outbox`)).body.messages as Array<{ to: string; body: string }>).filter((m) => m.to === to);

    // The connection's greeting in the new syntax, saved through the API the dialog uses.
    const current = (await admin.get(`/whatsapp/${conn.id}`)).body;
    const put = await admin.put(`/whatsapp/${conn.id}`, { ...current, queueIds: conn.queueIds, greetingMessage: "{{saudacao}}, {{primeiroNome}}! Escolha:" });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    await admin.post(`/simulator/${conn.id}/inbound`, { from: "5511977770001", name: "Joana Prado", body: "oi" });
    const greeting = await eventually(async () => (await outbox("5511977770001"))[0]);
    assert.match(greeting.body, /^(Bom dia|Boa tarde|Boa noite), Joana! Escolha:/);

    // A scheduled message with the old single-brace and double-brace spellings.
    const contact = await makeContact(server, companyId, { name: "Rui Tavares", number: "5511977770002" });
    const scheduled = await admin.post("/schedules", { body: "Lembrete para {nome} ({{name}})", contactId: contact.id, sendAt: new Date(Date.now() + 500).toISOString() });
    assert.equal(scheduled.status, 200, JSON.stringify(scheduled.body));
    const reminder = await eventually(async () => (await outbox("5511977770002")).find((m) => m.body.includes("Lembrete")), 20_000);
    assert.equal(reminder.body, "Lembrete para Rui Tavares (Rui Tavares)");

    // The external API.
    const response = await fetch(`${server.url}/api/messages/send`, {
      method: "POST",
      headers: { authorization: `Bearer ${conn.token}`, "content-type": "application/json" },
      body: JSON.stringify({ number: "5511977770002", body: "Oi {{primeiroNome}}, seu número é {{numero}}", openTicket: 0 }),
    });
    assert.equal(response.status, 200, await response.text());
    const api = await eventually(async () => (await outbox("5511977770002")).find((m) => m.body.startsWith("Oi ")));
    assert.equal(api.body, "Oi Rui, seu número é 5511977770002");
  });
});
