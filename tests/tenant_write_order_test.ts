/**
 * Uniform validation order (issue #24): a write aimed at another company's record answers 404
 * whatever its body, because handlers find the record in the caller's company before they
 * validate. The test walks the app's own route table, so a new PUT, PATCH, DELETE or POST
 * with a record id in its path is covered without anyone listing it: each is called by
 * another company's admin with the demo tenant's ids and a body no schema accepts.
 * A path parameter the fixtures have no record for fails the test (add one to `demoIds`).
 */
import assert from "node:assert/strict";
import { createApp } from "../server/app.ts";
import type { AppDeps } from "../server/deps.ts";
import { whatsapps } from "../actors/whatsapps/collection.ts";
import { withServer } from "./helpers/server.ts";
import type { Client, TestServer } from "./helpers/server.ts";
import { createTenant } from "./helpers/tenants.ts";

/** Routes whose parameter is not a company record, each with the reason. */
const NOT_COMPANY_RECORDS: Record<string, string> = {
  "PUT /settings/:key": "the key names a setting of the caller's own company",
  "POST /webhooks/evolution/:whatsappId": "a provider's webhook, authenticated by the connection's token, not a login",
  "POST /webhooks/cloudapi/:whatsappId": "a provider's webhook, authenticated by Meta's signature, not a login",
  "POST /buscarpesquisa/:chavePesquisa": "the public survey, opened by its unguessable key",
  "POST /user-announcements/:id/read": "platform announcements: every user marks them read",
};

/** Platform records: only the platform owner writes them, so another admin meets the role check (403). */
const SUPER_ONLY = /^\/(companies\/:id$|helps\/|plans\/|announcements\/)/;
const SUPER_ONLY_ROUTES = new Set(["DELETE /whatsapp/:id"]);

/** Every write route with a path parameter, as "METHOD /path". */
function writeRoutes(): string[] {
  const routes = new Set<string>();
  for (const route of createApp({} as AppDeps).routes) {
    if (!["PUT", "PATCH", "DELETE", "POST"].includes(route.method) || !route.path.includes(":")) continue;
    routes.add(`${route.method} ${route.path}`);
  }
  return [...routes];
}

/**
 * One record of each kind in the demo tenant, by parameter name, or "<path> <name>" for one
 * path, or "/<first segment> <name>" for every path of an area.
 */
async function demoIds(server: TestServer, admin: Client, routes: string[]): Promise<Record<string, string>> {
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
  const subscription = routes.includes("PUT /webhooks/subscriptions/:id")
    ? (await admin.post("/webhooks/subscriptions", {
      url: "https://example.com/hook",
      events: ["ticket.created"],
      secret: "segredo-alvo-0123456789",
    })).body
    : { id: 0 };
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
    "/webhooks/subscriptions/:id id": subscription?.id,
    "/webhooks/subscriptions/:id/deliveries/:deliveryId/resend id": subscription?.id,
    deliveryId: "1",
    "/companies/:id id": companyId,
    "/companies/:id/schedules id": companyId,
    // Platform records (SUPER_ONLY): any id, the role check answers first.
    "/helps/:id id": 1,
    "/plans/:id id": server.demo!.planId,
    "/announcements/:id id": 1,
    "/announcements/:id/media-upload id": 1,
  };
  for (const [name, value] of Object.entries(ids)) assert.ok(value !== undefined && value !== null, `no demo record for ${name}`);
  return Object.fromEntries(Object.entries(ids).map(([k, v]) => [k, String(v)]));
}

/** The route's path with the demo's ids; throws for a parameter without a record. */
function pathOf(path: string, ids: Record<string, string>): string {
  return path.replace(/:(\w+)(\{[^/]*\})?/g, (_all, name: string) => {
    const area = `/${path.split("/")[1]} ${name}`;
    const value = ids[`${path} ${name}`] ?? ids[area] ?? ids[name];
    if (!value) throw new Error(`no demo record for ${path}'s :${name}: add one to demoIds in this test`);
    return value;
  });
}

Deno.test("a write to another company's record answers 404 whatever the body, on every route", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const routes = writeRoutes().filter((r) => !(r in NOT_COMPANY_RECORDS));
    const ids = await demoIds(server, admin, routes);
    const intruder = (await createTenant(server, "Intrusa")).admin;
    const wrong: string[] = [];
    let tried = 0;
    for (const route of routes) {
      const [method, path] = route.split(" ");
      const url = pathOf(path, ids);
      const expected = SUPER_ONLY.test(path) || SUPER_ONLY_ROUTES.has(route) ? 403 : 404;
      // Three bodies no schema takes: the wrong JSON type, broken JSON, and a form of junk.
      const form = new FormData();
      form.append("junk", "x".repeat(10));
      const bodies: [string, BodyInit, string?][] = [
        ["array", JSON.stringify([1, "x", null]), "application/json"],
        ["broken JSON", "{\"name\":", "application/json"],
        ["junk form", form],
      ];
      for (const [what, body, type] of bodies) {
        const headers: Record<string, string> = { authorization: `Bearer ${intruder.token}` };
        if (type) headers["content-type"] = type;
        const response = await fetch(server.url + url, { method, headers, body });
        const answer = await response.text();
        tried++;
        // A path the router does not know would be a false pass: the 404 must be the record's.
        if (response.status !== expected || answer.includes("No route")) wrong.push(`${route} (${what}): ${response.status} ${answer.slice(0, 120)}`);
      }
    }
    console.log(`tenant write order: ${routes.length} routes × 3 bad bodies = ${tried} calls`);
    assert.deepEqual(wrong, [], "writes that did not answer 404 (403 for platform records) to another company");
    assert.ok(routes.length >= 50, `only ${routes.length} routes walked`);
    // The demo's records are all still there, unchanged by the intruder.
    assert.equal((await admin.get(`/tickets/${ids.ticketId}`)).status, 200);
    assert.equal((await admin.get(`/contacts/${ids["/contacts/:id id"]}`)).status, 200);
  });
});
