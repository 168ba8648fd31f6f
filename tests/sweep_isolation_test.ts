/**
 * Isolation sweep (issue #24): every route of the app's route table and every page route is
 * called with the ids of company A's records as company B's admin, as an agent of A outside
 * the queue of A's ticket, and with no token. Any answer carrying A's data (its marker
 * strings, the ticket's uuid, the connection's token…) or any change to A's records in the
 * store (a digest of A's KV entries before and after each call) fails the test. A route
 * added to the app is swept without anyone listing it here.
 */
import assert from "node:assert/strict";
import { PAGE_ROUTES } from "../server/pages/route_table.ts";
import { type Client, withServer } from "./helpers/server.ts";
import {
  type Answer,
  type Caller,
  digestDiff,
  type IdBook,
  kvDigest,
  pathsFor,
  requestFor,
  send,
  sweepEndpoints,
} from "./helpers/sweep.ts";
import { leaked, markedTenant, ofCompany } from "./helpers/sweep_tenant.ts";
import { createTenant } from "./helpers/tenants.ts";

/**
 * Routes where another caller reaching A's data is the design, each with its reason. They
 * are still called (and must not answer 5xx), but neither their answers nor their changes count.
 */
const CAPABILITY_ROUTES: Record<string, string> = {
  "GET /buscarpesquisa/:chavePesquisa": "the public survey: the unguessable key in the customer's link is the credential",
  "POST /buscarpesquisa/:chavePesquisa": "the public survey's answer: the key is the credential (one answer per ticket)",
};

/** One identity of the sweep and what of A it must neither read nor change. */
interface Identity {
  name: string;
  caller: Caller;
  secrets: string[];
  /** The part of the store this identity must not change. */
  guarded: (key: Deno.KvKey, value: unknown) => boolean;
}

function callerOf(client: Client | undefined): Caller {
  return client ? { token: client.token, cookie: client.cookie } : {};
}

/** Concrete page paths: each parameter filled with A's ticket uuid and every other id. */
function pagePaths(book: IdBook): string[] {
  const ids = [...new Set(Object.values(book).flat())];
  const out: string[] = [];
  for (const route of PAGE_ROUTES) {
    let paths = [""];
    for (const seg of route.pattern.split("/").slice(1)) {
      const values = !seg.startsWith(":")
        ? [seg]
        : seg.startsWith(":ticketId")
        ? [...book.ticketUuid, ...book.ticket]
        : ids.filter((id) => typeof id === "number" || /^\d/.test(String(id)));
      paths = paths.flatMap((p) => values.map((v) => `${p}/${encodeURIComponent(String(v))}`));
    }
    out.push(...paths.map((p) => p || "/"));
  }
  return out;
}

Deno.test("isolation sweep: no route or page gives company A's data to another company, an agent outside the queue or no token", async () => {
  await withServer(async (server) => {
    const a = await markedTenant(server);
    const beta = await createTenant(server, "Beta Sweep");
    const { kv } = server.deps;
    const ofA = (key: Deno.KvKey, value: unknown) => ofCompany(a.companyId, key, value);
    // The agent may change A's other records (contacts, its own profile…): only the ticket is guarded.
    const ofTicket = (key: Deno.KvKey, value: unknown) =>
      key[1] === a.companyId &&
      ((["ticket", "ticket_latest", "message"].includes(String(key[0])) && key[2] === a.ticketId) ||
        (value as { ticketId?: unknown } | null)?.ticketId === a.ticketId);
    const identities: Identity[] = [
      { name: "company B's admin", caller: callerOf(beta.admin), secrets: a.secrets, guarded: ofA },
      { name: "agent of A outside the queue", caller: callerOf(a.outsider), secrets: a.ticketSecrets, guarded: ofTicket },
      { name: "no token", caller: {}, secrets: a.secrets, guarded: ofA },
    ];
    // Controls: the search finds A's data where A may read it, so a clean sweep means something.
    const own = await send(server.url, "GET", `/messages/${a.ticketId}`, callerOf(a.admin));
    assert.ok(leaked(own.text, a.ticketSecrets), "A's admin reads the ticket marker in its messages");
    const active = await a.outsider.get(`/contacts/${a.book.contact[0]}/active-ticket`);
    // Was the whole ticket, last message and survey key included (fixed with the sweep).
    assert.deepEqual(Object.keys(active.body).sort(), ["id", "status", "updatedAt", "uuid"]);
    assert.ok(leaked(JSON.stringify((await a.admin.get(`/contacts/${a.book.contact[0]}/active-ticket`)).body), a.ticketSecrets));

    const endpoints = sweepEndpoints();
    const pages = pagePaths(a.book);
    const findings: string[] = [];
    let calls = 0;
    let validBodies = 0;
    /** Calls `run`; `sent` is what the request carried (its path, query, body), which an answer may echo. */
    const check = async (who: Identity, label: string, run: () => Promise<Answer>, sent: string, capability: boolean) => {
      const before = await kvDigest(kv, who.guarded);
      const answer = await run();
      calls++;
      const after = await kvDigest(kv, who.guarded);
      const secret = capability ? undefined : leaked(answer.text, who.secrets.filter((s) => !sent.includes(s)));
      if (secret) findings.push(`${who.name}: ${label} answered ${answer.status} carrying A's "${secret}"`);
      const changed = capability ? [] : digestDiff(before, after);
      if (changed.length) findings.push(`${who.name}: ${label} answered ${answer.status} and changed A: ${changed.slice(0, 3).join(" ")}`);
      if (answer.status >= 500) findings.push(`${who.name}: ${label} answered ${answer.status}`);
    };

    for (const who of identities) {
      for (const ep of endpoints) {
        for (const path of pathsFor(ep.path, a.book)) {
          const request = requestFor(ep, a.book, "ZZSWEEP");
          if (request.valid) validBodies++;
          const sent = `${decodeURIComponent(path + request.query)} ${request.body instanceof FormData ? "" : JSON.stringify(request.body)}`;
          const run = () => send(server.url, ep.method, path + request.query, who.caller, request.body);
          await check(who, `${ep.method} ${path}`, run, sent, ep.key in CAPABILITY_ROUTES);
        }
      }
      for (const path of pages) {
        await check(who, `page ${path}`, () => send(server.url, "GET", path, who.caller, undefined, { accept: "text/html" }), decodeURIComponent(path), false);
      }
    }
    console.log(
      `isolation sweep: ${endpoints.length} routes + ${pages.length} page paths × ${identities.length} identities = ${calls} calls ` +
        `(${validBodies} with a body or query the route's schema accepts), ${findings.length} findings`,
    );
    assert.deepEqual(findings, []);
    assert.equal((await fetch(`${server.url}/health`).then((r) => r.json())).status, "ok");
  });
});
