/**
 * Any entry (issue #35, server/cluster/router.ts), the flows cluster_routing_test.ts leaves:
 * two processes on one store file, one company each; every request of the demo company goes to
 * the process that does not hold it. The channel webhooks (the Cloud API's verification and a
 * signed delivery, Evolution's), a payment provider's "paid" notification (the router serves
 * it here, the handler is refused for the company held elsewhere, the router sends it on with
 * its body), the public survey (its API and its page) and the public sign-up. Every outside
 * service is a local fake the nodes are pointed at.
 */
import assert from "node:assert/strict";
import { Client } from "./helpers/server.ts";
import { eventually } from "./helpers/channels.ts";
import { loginAt } from "./helpers/child_server.ts";
import { leaseOf, type Node, ownerOf, seedStore, settledOwners, startNode } from "./helpers/cluster.ts";
import { createCloud, deliver, messagesOf, ticketOf, VERIFY_TOKEN } from "./helpers/cloudapi.ts";
import { fakeGraph, notification, textMessage } from "./helpers/fake_graph.ts";
import { fakeEvolution } from "./helpers/fake_evolution.ts";
import { FAKE_CREDENTIALS, fakePayments, postDelivery, stripeDelivery } from "./helpers/fake_payments.ts";
import { SocketPool } from "./helpers/ws.ts";

/**
 * The messages of ticket `ticketId` with `body`, read through `client` once there is one: a
 * webhook may answer before the adapter's message is stored, so a single read races it.
 */
function storedAt(client: Client, ticketId: number, body: string): Promise<Array<{ body: string }>> {
  return eventually(async () => {
    const found = (await messagesOf(client, ticketId)).filter((m) => m.body === body);
    return found.length > 0 ? found : undefined;
  }, 10_000, `"${body}" stored`);
}

/** The operator's BALCAO_PUBLIC_URL (a proxy in front of both): Stripe's links need one. */
const PUBLIC_URL = "https://balcao.example";
const DAY = 86_400_000;

const SURVEY = {
  name: "Atendimento",
  message: "Avalie o atendimento pelo outro processo",
  options: [{ name: "Ruim", value: 1 }, { name: "Regular", value: 3 }, { name: "Otimo", value: 5 }],
};

type Ticket = { id: number; status: string; whatsappId: number; rating: number | null; contact?: { number: string } };

Deno.test("channel and payment webhooks and the public pages reach the company through a process that does not hold it", async (t) => {
  const graph = fakeGraph();
  const evo = fakeEvolution();
  const payments = fakePayments();
  const dir = await Deno.makeTempDir({ prefix: "cluster_webhooks_" });
  const nodes: Node[] = [];
  const sockets: SocketPool[] = [];
  try {
    const companyId = await seedStore(dir);
    const env = {
      BALCAO_GRAPH_API_URL: graph.baseUrl,
      BALCAO_EVOLUTION_URL: evo.url,
      BALCAO_EVOLUTION_APIKEY: "evo-key",
      BALCAO_STRIPE_API_URL: payments.urls.stripe,
      BALCAO_PUBLIC_URL: PUBLIC_URL,
    };
    nodes.push(await startNode(dir, "a", undefined, env));
    assert.equal(await ownerOf(dir, companyId), "a");
    nodes.push(await startNode(dir, "b", undefined, env));
    const owners = await settledOwners(dir, [1, companyId]);
    assert.deepEqual(new Set(owners.values()), new Set(["a", "b"]), "one company each");
    const owner = nodes.find((n) => n.name === owners.get(companyId))!;
    const other = nodes.find((n) => n !== owner)!;
    const { client: admin, userId: adminId } = await loginAt(other.url);
    const { client: superUser } = await loginAt(other.url, "super@balcao.local");
    const atOwner = new Client(owner.url, admin.token);
    // The platform's Stripe keys, early: a process that does not run the platform company reads
    // them from the store, at most a second old (actors/platform/lookup.ts platformSettings).
    for (const key of ["stripeprivatekey", "stripewebhooksecret"] as const) {
      const saved = await superUser.put(`/settings/${key}`, { value: FAKE_CREDENTIALS[key] });
      assert.equal(saved.status, 200, JSON.stringify(saved.body));
    }

    await t.step("WhatsApp Cloud API: Meta's verification and a signed inbound message", async () => {
      const created = await createCloud(admin, graph);
      assert.equal(created.status, 200, JSON.stringify(created.body));
      assert.equal(created.body.status, "CONNECTED");
      const id: number = created.body.id;
      const verify = (token: string) =>
        fetch(`${other.url}/webhooks/cloudapi/${id}?hub.mode=subscribe&hub.verify_token=${encodeURIComponent(token)}&hub.challenge=7731`)
          .then(async (r) => ({ status: r.status, text: await r.text() }));
      assert.deepEqual(await verify(VERIFY_TOKEN), { status: 200, text: "7731" });
      assert.equal((await verify("not-the-token")).status, 403);

      const customer = "5521988881111";
      const hello = notification(graph, { contacts: [{ wa_id: customer, name: "Nuvem Cluster" }], messages: [textMessage(customer, "wamid.CLUSTER1", "olá pelo outro processo")] });
      assert.equal((await deliver(other, id, hello, "not-the-secret")).status, 401, "a forged delivery is refused");
      const first = await deliver(other, id, hello);
      assert.equal(first.status, 200, first.text);
      const ticket = await ticketOf(admin, customer);
      assert.equal((await storedAt(atOwner, ticket.id, "olá pelo outro processo")).length, 1, "stored in the owner's company");
      // Meta's retry of the same wamid, through the same process: still once.
      assert.equal((await deliver(other, id, hello)).status, 200);
      assert.equal((await messagesOf(admin, ticket.id)).filter((m) => m.body === "olá pelo outro processo").length, 1);
    });

    await t.step("Evolution: the connection comes up and a customer's message arrives", async () => {
      const queueId = (await admin.get("/queue")).body[0].id;
      const created = await admin.post("/whatsapp", { name: "Evolution", provider: "evolution", queueIds: [queueId] });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      const id: number = created.body.id;
      // The URL Evolution was given (on the proxy), taken to the process that does not hold the company.
      const registered = new URL(evo.state.webhooks.get(`balcao-${companyId}-${id}`)!);
      assert.equal(registered.origin, PUBLIC_URL);
      assert.equal(registered.pathname, `/webhooks/evolution/${id}`);
      const hook = (payload: unknown, url = `${other.url}${registered.pathname}${registered.search}`) =>
        fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(payload) })
          .then(async (r) => ({ status: r.status, text: await r.text() }));

      assert.equal((await hook({ event: "connection.update", data: { state: "open" } }, `${other.url}/webhooks/evolution/${id}?token=wrong`)).status, 401);
      evo.state.connection = "open";
      const up = await hook({ event: "connection.update", instance: "x", data: { state: "open", wuid: "5511944441111@s.whatsapp.net" } });
      assert.equal(up.status, 200, up.text);
      const connected = (await admin.get(`/whatsapp/${id}`)).body;
      assert.equal(connected.status, "CONNECTED");
      assert.equal(connected.number, "5511944441111");

      const customer = "5521933331111";
      const inbound = await hook({
        event: "messages.upsert",
        data: { key: { remoteJid: `${customer}@s.whatsapp.net`, fromMe: false, id: "EVOCLUSTER1" }, pushName: "Eva Cluster", message: { conversation: "olá evolution no cluster" }, messageTimestamp: Math.floor(Date.now() / 1000) },
      });
      assert.equal(inbound.status, 200, inbound.text);
      const ticket = await ticketOf(admin, customer);
      assert.equal((await storedAt(atOwner, ticket.id, "olá evolution no cluster")).length, 1, "stored in the owner's company");
    });

    await t.step("the public survey: its API and its page, answered through one process and seen through the owner", async () => {
      for (const [key, value] of [["userRating", "enabled"], ["ratingurl", `${PUBLIC_URL}/survey`]]) {
        assert.equal((await admin.put(`/settings/${key}`, { value })).status, 200);
      }
      const rating = await admin.post("/ratings", SURVEY);
      assert.equal(rating.status, 200, JSON.stringify(rating.body));
      // A customer of the demo's simulated number, whose outbox shows what was sent to them.
      const conn = (await admin.get("/whatsapp")).body.find((w: { name: string }) => w.name === "WhatsApp Demo");
      const ticket = ((await admin.get("/tickets?status=pending&showAll=true")).body.tickets as Ticket[]).find((t) => t.whatsappId === conn.id)!;
      assert.equal((await admin.put(`/tickets/${ticket.id}`, { status: "open", userId: adminId })).status, 200);
      const resolved = await admin.put(`/tickets/${ticket.id}`, { status: "closed", ratingId: rating.body.id });
      assert.equal(resolved.status, 200, JSON.stringify(resolved.body));
      const key = await eventually(async () => {
        const box = (await admin.get(`/simulator/${conn.id}/outbox`)).body.messages as Array<{ to: string; body: string }>;
        return box.filter((m) => m.to === ticket.contact?.number).map((m) => /chavePesquisa=([\w-]+)/.exec(m.body)?.[1]).find(Boolean);
      }, 10_000, "the survey's link");

      const anonymous = new Client(other.url);
      const shown = await anonymous.get(`/buscarpesquisa/${key}`);
      assert.equal(shown.status, 200, JSON.stringify(shown.body));
      assert.equal(shown.body.message, SURVEY.message);
      assert.deepEqual(shown.body.options.map((o: { value: number }) => o.value), [1, 3, 5]);
      assert.equal(shown.body.answered, false);
      // The page reads the survey on the server: its first paint has the question.
      const page = await fetch(`${other.url}/survey?chavePesquisa=${key}`, { headers: { accept: "text/html" } });
      assert.equal(page.status, 200);
      assert.ok((await page.text()).includes(SURVEY.message), "the survey page through the other process shows the survey");

      const answered = await anonymous.post(`/buscarpesquisa/${key}`, { value: 5 });
      assert.equal(answered.status, 200, JSON.stringify(answered.body));
      assert.deepEqual(answered.body, { answered: true, rate: 5 });
      assert.equal(((await atOwner.get(`/tickets/${ticket.id}`)).body as Ticket).rating, 5);
      const seen = (await new Client(owner.url).get(`/buscarpesquisa/${key}`)).body;
      assert.equal(seen.answered, true);
      assert.equal(seen.rate, 5);
      assert.equal((await anonymous.post(`/buscarpesquisa/${key}`, { value: 1 })).status, 409, "one answer per ticket");
    });

    await t.step("Stripe's paid notification: the invoice paid and the licence renewed once, a redelivery changes nothing", async () => {
      const open = ((await admin.get("/invoices/all")).body.invoices as Array<{ id: number; status: string; value: number }>)
        .find((i) => i.status === "open");
      assert.ok(open, "the demo's coming invoice (issued at seed)");
      const dueDate = async () => Date.parse((await atOwner.get(`/companies/${companyId}`)).body.dueDate);
      const before = await dueDate();
      // The owner reads the platform's settings from the store, up to a second old (see above).
      const checkout = await eventually(async () => {
        const res = await admin.post("/subscription", {
          firstName: "Maria",
          address2: "Rua das Flores, 10",
          city: "Curitiba",
          zipcode: "80010000",
          country: "BR",
          plan: JSON.stringify({ price: open.value, users: 50, connections: 10 }),
          price: open.value,
          users: 50,
          connections: 10,
          invoiceId: open.id,
        });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        return res.body.stripeURL ? res : undefined;
      }, 5_000, "Stripe offered at checkout");
      const sessionId = checkout.body.stripeURL.split("/").at(-1);
      const pool = new SocketPool(other.url);
      sockets.push(pool);
      const ws = await pool.connect(admin.token!);

      const paid = () =>
        stripeDelivery(FAKE_CREDENTIALS.stripewebhooksecret, { eventId: "evt_cluster_1", sessionId, reference: `${companyId}:${open.id}`, amountCents: Math.round(open.value * 100) });
      const first = await postDelivery(other.url, await paid());
      assert.equal(first.status, 200, JSON.stringify(first.body));
      assert.deepEqual(first.body, { received: 1, settled: 1 });
      const frame = await ws.event(`company-${companyId}-payment`, (d) => d.action === "CONCLUIDA");
      assert.equal((frame.data as { invoice: { id: number } }).invoice.id, open.id);
      assert.equal((await admin.get(`/invoices/${open.id}`)).body.status, "paid");
      const after = await dueDate();
      assert.ok(after - before >= 28 * DAY && after - before <= 31 * DAY, `one period on: ${new Date(before).toISOString()} → ${new Date(after).toISOString()}`);

      const replay = await postDelivery(other.url, await paid());
      assert.equal(replay.status, 200, JSON.stringify(replay.body));
      assert.deepEqual(replay.body, { received: 1, settled: 0 });
      assert.equal(await dueDate(), after, "renewed once");
      const history = (await admin.get("/payments")).body;
      assert.equal((history.payments ?? history).length, 1, JSON.stringify(history));
    });

    // Nothing above moved the demo company (the sign-up below adds a company to place).
    assert.equal((await leaseOf(dir, companyId))?.node, owner.name);

    await t.step("the public sign-up: a company created through one process, its admin served through the other", async () => {
      assert.equal((await superUser.put("/settings/allowregister", { value: "enabled" })).status, 200);
      const anonymous = new Client(other.url);
      const plan = (await anonymous.get("/plans/register")).body[0];
      // The page reads the sign-up switches and the plans on the server: the form is in its first paint.
      const page = await fetch(`${other.url}/signup`, { headers: { accept: "text/html" } });
      assert.equal(page.status, 200);
      assert.ok((await page.text()).includes(plan.name), "the sign-up page offers the platform's plans");
      const email = "maria@cluster.local";
      const signed = await anonymous.post("/companies/cadastro", {
        name: "Empresa do Cluster",
        namecomplete: "Maria Cluster",
        email,
        password: "demo1234",
        phone: "11999990000",
        planId: plan.id,
      });
      assert.equal(signed.status, 201, JSON.stringify(signed.body));
      const newId: number = signed.body.company.id;
      const placed = await settledOwners(dir, [1, companyId, newId]);
      const away = nodes.find((n) => n.name !== placed.get(newId))!;
      const { client: newcomer } = await loginAt(away.url, email);
      const users = await newcomer.get("/users");
      assert.equal(users.status, 200, JSON.stringify(users.body));
      assert.deepEqual((users.body.users ?? users.body).map((u: { email: string }) => u.email), [email]);
    });
  } finally {
    for (const pool of sockets) await pool.closeAll();
    for (const node of nodes) await node.kill();
    await graph.server.shutdown();
    await evo.server.shutdown();
    await payments.close();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
});
