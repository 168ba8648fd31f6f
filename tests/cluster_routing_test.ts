/**
 * Any entry (issue #35, server/cluster/router.ts): two processes on one store file, one company
 * each (the platform's and the demo's); each flow of the demo company goes through the process
 * that does not hold it, which sends it on, and the user sees no difference: login by e-mail and the
 * refresh cookie, pages, the API with a user's token, a WebSocket opened on the second process
 * that gets a live ticket update, the external messages API with a connection token, the
 * simulator's inbound. The channel and payment webhooks and the public pages (the survey, the
 * sign-up): cluster_routing_webhooks_test.ts.
 */
import assert from "node:assert/strict";
import { Client } from "./helpers/server.ts";
import { leaseOf, type Node, ownerOf, seedStore, settledOwners, startNode } from "./helpers/cluster.ts";
import { isEvent, WsClient } from "./helpers/ws.ts";

Deno.test("a process that does not hold the company serves all of its flows through its owner", async () => {
  const dir = await Deno.makeTempDir({ prefix: "cluster_routing_" });
  const nodes: Node[] = [];
  try {
    const companyId = await seedStore(dir);
    nodes.push(await startNode(dir, "a"));
    assert.equal(await ownerOf(dir, companyId), "a");
    nodes.push(await startNode(dir, "b"));
    // The platform's company and the demo's: the second process takes one of them.
    const owners = await settledOwners(dir, [1, companyId]);
    assert.deepEqual(new Set(owners.values()), new Set(["a", "b"]), "one company each");
    const a = nodes.find((n) => n.name === owners.get(companyId))!;
    const b = nodes.find((n) => n !== a)!;
    const other = new Client(b.url);

    // Login by e-mail through b; the refresh cookie works there too.
    const login = await other.post("/auth/login", { email: "admin@demo.local", password: "demo1234" });
    assert.equal(login.status, 200, JSON.stringify(login.body));
    other.token = login.body.token;
    const refreshed = await other.post("/auth/refresh_token");
    assert.equal(refreshed.status, 200, JSON.stringify(refreshed.body));

    // The API with the user's token: the same answers through either process.
    const viaB = await other.get("/tickets?status=pending&showAll=true");
    assert.equal(viaB.status, 200, JSON.stringify(viaB.body));
    const viaA = await new Client(a.url, other.token).get("/tickets?status=pending&showAll=true");
    assert.deepEqual(viaB.body.tickets.map((t: { id: number }) => t.id), viaA.body.tickets.map((t: { id: number }) => t.id));
    assert.ok(viaB.body.tickets.length > 0, "the demo's waiting tickets");

    // A page through b, with the cookie: rendered by the owner with the user's data.
    const page = await fetch(`${b.url}/tickets`, { headers: { cookie: other.cookie, accept: "text/html" } });
    assert.equal(page.status, 200, `${other.cookie}: ${await page.clone().text()}`);
    assert.match(await page.text(), /<html/i);

    // A socket opened on b gets the live update of a ticket accepted through b.
    const socket = new WsClient(b.url, { token: other.token! });
    try {
      await socket.opened;
      await socket.hello();
      const ticket = viaB.body.tickets[0];
      const accepted = await other.put(`/tickets/${ticket.id}`, { status: "open", userId: login.body.user.id });
      assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
      await socket.until((f) => {
        if (!isEvent(f) || f.channel !== `company-${companyId}-ticket`) return false;
        const data = f.data as { ticket?: { id: number; status: string } };
        return data.ticket?.id === ticket.id && data.ticket?.status === "open";
      });

      // An agent's reply through b reaches the simulated customer.
      const reply = await other.post(`/messages/${ticket.id}`, { body: "Resposta pelo outro processo" });
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
    } finally {
      await socket.close();
    }

    // The simulator's inbound and the external API with a connection token, through b.
    const conn = (await other.get("/whatsapp")).body.find((w: { name: string }) => w.name === "WhatsApp Demo");
    const inbound = await other.post(`/simulator/${conn.id}/inbound`, { from: "5511977776666", name: "Cliente Cluster", body: "Olá do cluster" });
    assert.equal(inbound.status, 200, JSON.stringify(inbound.body));
    const tokened = await other.put(`/whatsapp/${conn.id}`, { ...conn, token: "token-do-cluster" });
    assert.equal(tokened.status, 200, JSON.stringify(tokened.body));
    const api = new Client(b.url, "token-do-cluster");
    const queueId = (await other.get("/queue")).body[0].id;
    const sent = await api.post("/api/messages/send", { number: "5511977776666", body: "Pela API", openTicket: 1, queueId });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));

    // Nothing moved: the owner still holds the company.
    assert.equal((await leaseOf(dir, companyId))?.node, a.name);
  } finally {
    for (const node of nodes) await node.kill();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
});
