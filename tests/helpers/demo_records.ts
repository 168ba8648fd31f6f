/**
 * One record of each kind in the demo tenant, for the tests that call every route with a real
 * id (tests/tenant_write_order_test.ts, tests/openapi_test.ts): created through the API, keyed
 * by parameter name, by "<path> <name>" for one path, or by "/<first segment> <name>" for every
 * path of an area. `recordPath` fills a route's parameters from them.
 */
import assert from "node:assert/strict";
import { whatsapps } from "../../actors/whatsapps/collection.ts";
import { listInvoices } from "../../actors/invoices/mod.ts";
import type { Client, TestServer } from "./server.ts";

/**
 * One record of each kind in the demo tenant, by parameter name, or "<path> <name>" for one
 * path, or "/<first segment> <name>" for every path of an area.
 */
export async function demoRecords(server: TestServer, admin: Client): Promise<Record<string, string>> {
  const companyId = server.demo!.companyId;
  const conn = (await whatsapps.in(server.deps.system, companyId).list())[0];
  const contact = (await admin.post("/contacts", { name: "Alvo", number: "5511955550001" })).body;
  const ticket = (await admin.post("/tickets", { contactId: contact.id, status: "open", whatsappId: conn.id })).body;
  assert.ok(ticket?.id, JSON.stringify(ticket));
  const message = await admin.post(`/messages/${ticket.id}`, { body: "Olá" });
  assert.equal(message.status, 200, JSON.stringify(message.body));
  const messages = (await admin.get(`/messages/${ticket.id}`)).body.messages as { id: string }[];
  const tag = (await admin.post("/tags", { name: "Alvo", color: "#2563eb", kanban: 0 })).body;
  const queueId = server.demo!.queueIds[0];
  const form = new FormData();
  form.append("queueId", String(queueId));
  form.append("title", "Opção alvo");
  const option = (await admin.request("POST", "/queue-options", form)).body;
  const quickForm = new FormData();
  quickForm.append("shortcode", "alvo");
  quickForm.append("message", "Mensagem alvo");
  const quick = (await admin.request("POST", "/quick-messages", quickForm)).body;
  const note = (await admin.post("/ticket-notes", { note: "Nota alvo", ticketId: ticket.id, contactId: contact.id })).body;
  const oportunidade = (await admin.post("/oportunidade", { name: "Alvo" })).body;
  const sendAt = new Date(Date.now() + 86_400_000).toISOString();
  const schedule = (await admin.post("/schedules", { body: "Lembrete", contactId: contact.id, sendAt })).body;
  const rating = (await admin.post("/ratings", { name: "Alvo", message: "Nota?", options: [{ name: "Boa", value: 5 }] })).body;
  const agent = ((await admin.get("/users/list")).body as { id: number; email: string }[])
    .find((u) => u.email === "agent@demo.local")!;
  const subscription = (await admin.post("/webhooks/subscriptions", {
    url: "https://example.com/hook",
    events: ["ticket.created"],
    secret: "segredo-alvo-0123456789",
  })).body;
  const chat = (await admin.post("/chats", { title: "Alvo", users: [agent.id] })).body;
  const list = (await admin.post("/contact-lists", { name: "Lista alvo" })).body;
  const item = (await admin.post("/contact-list-items", { contactListId: list?.id, name: "Item alvo", number: "5511955550002" })).body;
  const campaign = (await admin.post("/campaigns", {
    name: "Campanha alvo",
    status: "INATIVA",
    contactListId: list?.id,
    whatsappId: String(conn.id),
    scheduledAt: sendAt,
    message1: "Oi",
  })).body;
  // An invoice (#21): the demo seed's due date (8 days ahead: inside the issue lead time, outside
  // the renewal warning) had its coming period's invoice issued at start-up.
  const invoice = (await listInvoices(server.deps.system, companyId)).find((i) => i.status === "open");
  assert.ok(invoice, "the demo seed's coming period's invoice is open");
  const ids: Record<string, unknown> = {
    whatsappId: conn.id,
    ticketId: ticket.id,
    tagId: tag.id,
    "/whatsapp/:id id": conn.id,
    "/whatsapp/:id/keywords id": conn.id,
    "/whatsappsession/:id id": conn.id,
    "/simulator/:id/scan id": conn.id,
    "/simulator/:id/inbound id": conn.id,
    "/simulator/:id/call id": conn.id,
    "/simulator/:id/ack id": conn.id,
    "/simulator/:id/disconnect id": conn.id,
    "/simulator/:id/fail id": conn.id,
    "/simulator/:id/read id": conn.id,
    "/simulator/:id/chats id": conn.id,
    "/simulator/:id/chats/:number id": conn.id,
    number: contact.number,
    "/users/:id id": agent.id,
    "/contacts/:id id": contact.id,
    "/contacts/block/:id id": contact.id,
    "/tickets/:id id": ticket.id,
    "/tags/:id id": tag.id,
    "/queue/:id id": queueId,
    "/queue-options/:id id": option?.id,
    "/quick-messages/:id id": quick?.id,
    "/quick-messages/:id/media-upload id": quick?.id,
    "/ticket-notes/:id id": note?.id,
    "/oportunidade/:id id": oportunidade?.id,
    "/messages/edit/:id id": messages.at(-1)?.id,
    "/messages/:id{[0-9]{16}-[0-9]+} id": messages.at(-1)?.id,
    "/schedules/:id id": schedule?.id,
    "/ratings/:id id": rating?.id,
    "/chats/:id id": chat?.id,
    "/chats/:id/messages id": chat?.id,
    "/chats/:id/read id": chat?.id,
    // Every route under these areas names the area's record by :id.
    "/contact-lists id": list?.id,
    "/contact-list-items id": item?.id,
    "/campaigns id": campaign?.id,
    "/invoices id": invoice.id,
    "/webhooks/subscriptions/:id id": subscription?.id,
    "/webhooks/subscriptions/:id/deliveries/:deliveryId/resend id": subscription?.id,
    deliveryId: "1",
    "/companies/:id id": companyId,
    "/companies/:id/schedules id": companyId,
    "/companies/:id/move id": companyId,
    // Platform records (SUPER_ONLY): any id, the role check answers first.
    "/helps/:id id": 1,
    "/plans/:id id": server.demo!.planId,
    "/announcements/:id id": 1,
    "/announcements/:id/media-upload id": 1,
  };
  for (const [name, value] of Object.entries(ids)) assert.ok(value !== undefined && value !== null, `no demo record for ${name}`);
  return Object.fromEntries(Object.entries(ids).map(([k, v]) => [k, String(v)]));
}

/** `path` with its parameters filled from `ids` (see the module doc); `missing` names the rest. */
export function recordPath(path: string, ids: Record<string, string>, missing: (name: string) => string): string {
  return path.replace(/:(\w+)(\{[^/]*\})?/g, (_all, name: string) => {
    const area = `/${path.split("/")[1]} ${name}`;
    return ids[`${path} ${name}`] ?? ids[area] ?? ids[name] ?? missing(name);
  });
}
