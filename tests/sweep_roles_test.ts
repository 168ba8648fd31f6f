/**
 * Role sweep (issue #24): the route table walked against the permission table of the specs
 * (000 §6, 001 §6, 002 §6) for admin, supervisor, user, super, and an admin whose plan has
 * every flag off. Who may call an operation comes from its OpenAPI `access` (ACCESS_MEANS
 * reads each text; a new text fails the test until it is read here), corrected by the spec
 * where the document says nothing (OVERRIDES). Every call a role may not make must not answer
 * 2xx; the page routes must answer such a role with the gate's notice, never the page.
 */
import assert from "node:assert/strict";
import { whatsapps } from "../actors/whatsapps/collection.ts";
import type { PlanFlag } from "../domain/plan.ts";
import { OPERATIONS } from "../server/openapi/mod.ts";
import { PAGE_ROUTES } from "../server/pages/route_table.ts";
import { makeConnection } from "./helpers/fixtures.ts";
import { type Client, type TestServer, withServer } from "./helpers/server.ts";
import { type Endpoint, type IdBook, pathsFor, requestFor, send, sweepEndpoints } from "./helpers/sweep.ts";
import { markedTenant } from "./helpers/sweep_tenant.ts";

/** Roles from least to most: `none` is public, `user` any signed-in user. */
const RANK = { none: 0, user: 1, supervisor: 2, admin: 3, super: 4 } as const;
type Role = keyof typeof RANK;

/** Who may call: the least role, and the plan flags the caller's company needs. */
interface Need {
  role: Role;
  flags?: PlanFlag[];
}

/**
 * The parts of the OpenAPI `access` texts (server/openapi/ops_*.ts, parts split on `,` and
 * `;`) as the specs' table reads them: `plan flag X` needs the flag, the names below a role.
 * domain/permissions.ts gives supervisors the supervisor checks and admins those plus the
 * admin checks (000 §6); the names that are not permission names say which check they mean.
 * A part that looks like a check (`super`, `admin…`, `area:action`) and is not here fails the
 * test until it is read; other parts describe record-level rules ("owner only") and are left
 * to the isolation sweep.
 */
const ACCESS_ROLES: Record<string, Role> = {
  "super": "super",
  "admin of the company": "admin",
  // 001 §6: add, edit and the action buttons of connections are admin checks.
  "connections:manage": "admin",
  "contact-page:exports": "admin",
  "contacts-page:deleteContact": "supervisor",
  "dashboard:view": "supervisor",
  "queues:manage": "admin",
  "service-panel:view": "supervisor",
  "settings:manage": "admin",
  "tags:manage": "supervisor",
  // 000 §6: "Deleting a ticket is permission-gated"; supervisors delete tickets.
  "ticket-options:delete": "supervisor",
  "ticket-options:spy": "supervisor",
  "users:manage": "admin",
  // 000 §2: the campaign pages are for admin and supervisor.
  "campaigns:view": "supervisor",
  // 000 §2: /financeiro is for admin and supervisor (the invoices and payments, #21).
  "financeiro:view": "supervisor",
  // Not a check of the spec's table: the same users GET /users/list gives every user for the
  // transfer and wallet pickers (000 §7), so any signed-in user.
  "users:view": "user",
};

/** The need an `access` text states, or the parts this sweep cannot read. */
function readAccess(text: string): Need | { unread: string[] } {
  const need: Required<Need> = { role: "user", flags: [] };
  const unread: string[] = [];
  // Parentheses explain ("(admin, supervisor)"): dropped before the split.
  for (const raw of text.replace(/\(.*?\)/g, "").split(/[;,]/)) {
    const part = raw.trim();
    const flag = /^plan flag (\w+)$/.exec(part);
    if (flag) need.flags.push(flag[1] as PlanFlag);
    else if (part in ACCESS_ROLES) need.role = RANK[ACCESS_ROLES[part]] > RANK[need.role] ? ACCESS_ROLES[part] : need.role;
    else if (/^(super|admin|supervisor)\b|^[\w-]+:[\w-]+$/.test(part)) unread.push(part);
  }
  return unread.length ? { unread } : need;
}

/** What the spec says where the document's `access` is silent, by `METHOD /path`. */
const OVERRIDES: Record<string, Need> = {
  // The sweep edits other users (A's new user, A's admin): 000 §6 edit profile and queues
  // in the user modal are admin checks; a user edits only itself.
  "PUT /users/:id": { role: "admin" },
  // 001 §6: admin only may assign users to a contact and add it to the wallet.
  "PUT /wallets/contacts": { role: "admin" },
  // 001 §6 upload screens are super only.
  "POST /settings/media-upload": { role: "super" },
  // The simulator drives a connection as its phone would: a connection action (001 §6).
  "GET /simulator/:id/qr": { role: "admin" },
  "POST /simulator/:id/scan": { role: "admin" },
  "POST /simulator/:id/inbound": { role: "admin" },
  "POST /simulator/:id/call": { role: "admin" },
  "GET /simulator/:id/outbox": { role: "admin" },
  "POST /simulator/:id/ack": { role: "admin" },
  "POST /simulator/:id/disconnect": { role: "admin" },
  "POST /simulator/:id/fail": { role: "admin" },
  // 001 §6: the external messages API requires useExternalApi (called with a connection's token).
  "POST /api/messages/send": { role: "none", flags: ["useExternalApi"] },
};

/** Routes the role sweep does not judge, each with its reason. */
const NOT_ROLE_ROUTES: Record<string, string> = {
  "POST /webhooks/evolution/:whatsappId": "a provider's webhook: authenticated by the connection's inbound secret (not its API token), no user role",
  "POST /webhooks/cloudapi/:whatsappId": "a provider's webhook: signed with the app secret, no user role",
  "GET /webhooks/cloudapi/:whatsappId": "the provider's verification handshake: its verify token, no user role",
};

/** The need of one endpoint; an undocumented endpoint is taken as open to any signed-in user. */
function needOf(ep: Endpoint): Need {
  if (OVERRIDES[ep.key]) return OVERRIDES[ep.key];
  const op = ep.op;
  if (!op) return { role: "user" };
  if (op.auth !== "bearer") return { role: "none" };
  const need = op.access ? readAccess(op.access) : { role: "user" as const };
  if ("unread" in need) throw new Error(`${ep.key}: cannot read access ${need.unread.join(", ")}`);
  return need;
}

/** Page routes and who may open them (000 §2, 001 §6, 002 §2.1, §6); absent: any user. */
const PAGE_NEEDS: Record<string, Need> = {
  // "/" (000 §2: admin only) is where every gate sends the user, so it renders for everyone;
  // its numbers come from GET /dashboard, which the API sweep above holds to dashboard:view.
  "/servicePanel": { role: "supervisor" },
  "/kanban": { role: "user", flags: ["useKanban"] },
  "/schedules": { role: "user", flags: ["useSchedules"] },
  "/campaigns": { role: "supervisor", flags: ["useCampaigns"] },
  "/contact-lists": { role: "supervisor", flags: ["useCampaigns"] },
  "/contact-lists/:contactListId/contacts": { role: "supervisor", flags: ["useCampaigns"] },
  "/campaigns-config": { role: "supervisor", flags: ["useCampaigns"] },
  "/campaign/:campaignId/report": { role: "supervisor", flags: ["useCampaigns"] },
  // "/financeiro" (000 §2: admin, supervisor) is also where an expired subscription lands
  // every profile, so it is not gated; it holds no data yet (construction page).
  "/announcements": { role: "super" },
  "/messages-api": { role: "user", flags: ["useExternalApi"] },
  "/ai-module": { role: "user", flags: ["useAI"] },
  "/companies": { role: "super" },
  "/users": { role: "supervisor" },
  "/queues": { role: "supervisor" },
  "/connections": { role: "supervisor" },
  "/settings": { role: "supervisor" },
  "/integrations": { role: "supervisor" },
  "/subscription": { role: "admin" },
  // Not in the spec: outbound webhooks (issue #22), for admins whose plan has the external API.
  "/webhooks": { role: "admin", flags: ["useExternalApi"] },
};

/** One identity: its role, its plan's flags that are off, the ids its own company holds. */
interface Identity {
  name: string;
  role: Role;
  client: Client;
  flagsOff: PlanFlag[];
  book: IdBook;
  /** The connection token of its company, for the external API. */
  connectionToken: string;
}

const allowed = (who: Identity, need: Need) =>
  RANK[who.role] >= RANK[need.role] && !(need.flags ?? []).some((f) => who.flagsOff.includes(f));

/** A company on a plan with every flag off, its admin, and the ids of its records. */
async function planlessCompany(server: TestServer): Promise<Identity> {
  const owner = await server.login("super@balcao.local");
  const flags = ["useCampaigns", "useSchedules", "useInternalChat", "useExternalApi", "useKanban", "useAI"] as PlanFlag[];
  const plan = await owner.post("/plans", {
    name: "Sem recursos",
    users: 10,
    connections: 5,
    queues: 5,
    ...Object.fromEntries(flags.map((f) => [f, false])),
  });
  assert.equal(plan.status, 201, JSON.stringify(plan.body));
  const created = await owner.post("/companies/internal", {
    namecomplete: "Admin Sem Recursos",
    name: "Sem Recursos",
    email: "admin@sem-recursos.local",
    password: "demo1234",
    phone: "5511999990001",
    planId: plan.body.id,
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const companyId: number = created.body.company.id;
  const client = await server.login("admin@sem-recursos.local");
  const contact = await client.post("/contacts", { name: "Cliente Sem Recursos", number: "5511977770001" });
  assert.equal(contact.status, 200, JSON.stringify(contact.body));
  const conn = await makeConnection(server, companyId);
  return {
    name: "admin of a plan with every flag off",
    role: "admin",
    client,
    flagsOff: flags,
    book: { company: [companyId], contact: [contact.body.id], whatsapp: [conn.id], user: [created.body.user.id] },
    connectionToken: conn.token,
  };
}

Deno.test("role sweep: no route answers 2xx, and no page renders, for a role or plan the specs' table refuses", async () => {
  await withServer(async (server) => {
    const a = await markedTenant(server);
    const planless = await planlessCompany(server);
    const token = (await whatsapps.in(server.deps.system, a.companyId).list())[0].token;
    const inA = (name: string, role: Role, client: Client): Identity => ({ name, role, client, flagsOff: [], book: a.book, connectionToken: token });
    const identities: Identity[] = [
      inA("user", "user", await server.login("agent@demo.local")),
      inA("supervisor", "supervisor", await server.login("supervisor@demo.local")),
      planless,
      inA("admin", "admin", a.admin),
      inA("super", "super", await server.login("super@balcao.local")),
    ];
    const unread = OPERATIONS.flatMap((op) => {
      const need = op.access ? readAccess(op.access) : undefined;
      return need && "unread" in need ? need.unread : [];
    });
    assert.deepEqual(unread, [], "access texts this sweep cannot read: add each to ACCESS_ROLES");

    const endpoints = sweepEndpoints().filter((ep) => !(ep.key in NOT_ROLE_ROUTES) && ep.key !== "DELETE /auth/logout");
    const findings: string[] = [];
    const counts = { refusedCalls: 0, allowedCalls: 0, allowed2xx: 0, pages: 0 };
    const statuses = new Map<number, number>();
    for (const who of identities) {
      for (const ep of endpoints) {
        const need = needOf(ep);
        const may = allowed(who, need);
        // An allowed call proves nothing about the gate and may destroy the fixtures: only reads.
        if (may && ep.method !== "GET") continue;
        const caller = ep.op?.auth === "connectionToken" ? { token: who.connectionToken } : { token: who.client.token };
        for (const path of pathsFor(ep.path, who.book).slice(0, 2)) {
          const request = requestFor(ep, who.book, "ZZROLE");
          const answer = await send(server.url, ep.method, path + request.query, caller, request.body);
          if (may) {
            counts.allowedCalls++;
            if (answer.status < 300) counts.allowed2xx++;
            continue;
          }
          counts.refusedCalls++;
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
          if (answer.status < 300) findings.push(`${who.name}: ${ep.method} ${path} answered ${answer.status} (needs ${JSON.stringify(need)})`);
        }
      }
      for (const route of PAGE_ROUTES.filter((r) => r.kind === "private")) {
        const need = PAGE_NEEDS[route.pattern] ?? { role: "user" };
        if (allowed(who, need)) continue;
        const path = route.pattern.replace(/:\w+\??/g, "1");
        const answer = await send(server.url, "GET", path, { cookie: who.client.cookie }, undefined, { accept: "text/html" });
        counts.pages++;
        if (!answer.text.includes('data-testid="gate-notice"')) {
          findings.push(`${who.name}: page ${path} rendered without the gate (needs ${JSON.stringify(need)})`);
        }
      }
    }
    console.log(
      `role sweep: ${endpoints.length} routes × ${identities.length} identities: ${counts.refusedCalls} calls a role may not make ` +
        `(statuses ${JSON.stringify(Object.fromEntries(statuses))}), ${counts.allowedCalls} allowed reads (${counts.allowed2xx} answered 2xx), ` +
        `${counts.pages} gated page loads, ${findings.length} findings`,
    );
    assert.deepEqual(findings, []);
    // The sweep is not vacuous: the identities' tokens worked and the refusals were decisions.
    assert.ok(counts.allowed2xx > identities.length * 30, `only ${counts.allowed2xx} allowed reads answered 2xx`);
    assert.ok((statuses.get(403) ?? 0) > 50, `only ${statuses.get(403) ?? 0} refusals were 403`);
  });
});
