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
import { withServer } from "./helpers/server.ts";
import { createTenant } from "./helpers/tenants.ts";
import { demoRecords, recordPath } from "./helpers/demo_records.ts";

/** Routes whose parameter is not a company record, each with the reason. */
const NOT_COMPANY_RECORDS: Record<string, string> = {
  "PUT /settings/:key": "the key names a setting of the caller's own company",
  "POST /webhooks/evolution/:whatsappId": "a provider's webhook, authenticated by the connection's inbound secret, not a login",
  "POST /webhooks/cloudapi/:whatsappId": "a provider's webhook, authenticated by Meta's signature, not a login",
  "POST /buscarpesquisa/:chavePesquisa": "the public survey, opened by its unguessable key",
  "POST /user-announcements/:id/read": "platform announcements: every user marks them read",
  "POST /simulator/payments/:chargeId/pay": "the demo's payment page, public and opened by its unguessable charge id",
  "POST /webhooks/payments/:provider": "a payment provider's webhook, authenticated by the provider's signature, not a login",
};

/** Platform records: only the platform owner writes them, so another admin meets the role check (403). */
const SUPER_ONLY = /^\/(companies\/:id(\/move)?$|helps\/|plans\/|announcements\/)/;
const SUPER_ONLY_ROUTES = new Set(["DELETE /whatsapp/:id", "POST /invoices/:id/pay"]);

/** Every write route with a path parameter, as "METHOD /path". */
function writeRoutes(): string[] {
  const routes = new Set<string>();
  for (const route of createApp({} as AppDeps).routes) {
    if (!["PUT", "PATCH", "DELETE", "POST"].includes(route.method) || !route.path.includes(":")) continue;
    routes.add(`${route.method} ${route.path}`);
  }
  return [...routes];
}

/** The route's path with the demo's ids; throws for a parameter without a record. */
function pathOf(path: string, ids: Record<string, string>): string {
  return recordPath(path, ids, (name) => {
    throw new Error(`no demo record for ${path}'s :${name}: add one to tests/helpers/demo_records.ts`);
  });
}

Deno.test("a write to another company's record answers 404 whatever the body, on every route", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const routes = writeRoutes().filter((r) => !(r in NOT_COMPANY_RECORDS));
    const ids = await demoRecords(server, admin);
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
