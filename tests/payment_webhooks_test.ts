/**
 * POST /webhooks/payments/{provider} (issue #21) on a real server: each provider's genuine
 * event renews the licence (invoice paid, due date moved, the live CONCLUIDA event on a real
 * socket); a bad signature, a replayed event id, another company's invoice reference and a
 * lower amount change nothing. And the demo's simulator page pays end to end.
 */
import assert from "node:assert/strict";
import { companies, PLATFORM } from "../actors/platform/collections.ts";
import { getInvoice } from "../actors/invoices/mod.ts";
import { decodeBrCode } from "../domain/brcode.ts";
import type { Invoice } from "../domain/invoice.ts";
import { withServer, type TestServer } from "./helpers/server.ts";
import { createTenant } from "./helpers/tenants.ts";
import { rememberCharge } from "../server/billing/invoices.ts";
import { SocketPool } from "./helpers/ws.ts";
import {
  asaasDelivery,
  configurePayments,
  type Delivery,
  efiDelivery,
  FAKE_CREDENTIALS,
  fakePayments,
  mercadoPagoDelivery,
  openInvoice,
  postDelivery,
  stripeDelivery,
} from "./helpers/fake_payments.ts";

const DAY = 86_400_000;
/** The operator's BALCAO_PUBLIC_URL: Stripe's and Mercado Pago's links need one. */
const PUBLIC_URL = "https://balcao.example";

const dueOf = async (server: TestServer, id: number) => (await companies.in(server.deps.system, PLATFORM).get(id))!.dueDate;
const invoiceNow = async (server: TestServer, inv: Invoice) => (await getInvoice(server.deps.system, inv.companyId, inv.id))!;

/** The checkout's body for `invoiceId`. */
function checkout(invoiceId: number) {
  return {
    firstName: "Maria",
    address2: "Rua das Flores, 10",
    city: "Curitiba",
    zipcode: "80010000",
    country: "BR",
    plan: JSON.stringify({ price: 199.9, users: 50, connections: 10 }),
    price: 199.9,
    users: 50,
    connections: 10,
    invoiceId,
  };
}

/** One genuine paid delivery per provider for `inv`, using what the checkout created. */
type Builder = (inv: Invoice, charge: { id: string }, eventId: string, value: number) => Promise<Delivery> | Delivery;

const PROVIDERS: Array<{ name: string; build: Builder; chargeOf: (res: Record<string, string | null>, fake: ReturnType<typeof fakePayments>) => string }> = [
  {
    name: "stripe",
    chargeOf: (res) => res.stripeURL!.split("/").at(-1)!,
    build: (inv, charge, eventId, value) =>
      stripeDelivery(FAKE_CREDENTIALS.stripewebhooksecret, { eventId, sessionId: charge.id, reference: `${inv.companyId}:${inv.id}`, amountCents: Math.round(value * 100) }),
  },
  {
    name: "asaas",
    chargeOf: (res) => res.asaasURL!.split("/").at(-1)!,
    build: (inv, charge, eventId, value) => asaasDelivery(FAKE_CREDENTIALS.asaaswebhooktoken, { eventId, paymentId: charge.id, reference: `${inv.companyId}:${inv.id}`, value }),
  },
  {
    name: "mercadopago",
    chargeOf: (res) => new URL(res.mercadopagoURL!).searchParams.get("pref_id")!,
    build: (_inv, _charge, eventId) => mercadoPagoDelivery(FAKE_CREDENTIALS.mpwebhooksecret, { paymentId: eventId }),
  },
  {
    name: "efi",
    chargeOf: (res) => decodeBrCode(res.pixCode!).txid!,
    build: (_inv, charge, eventId, value) => efiDelivery(FAKE_CREDENTIALS.efiwebhooksecret, [{ txid: charge.id, endToEndId: eventId, valor: value.toFixed(2) }]),
  },
];

Deno.test("each provider's genuine event renews: invoice paid, due date one period on, live CONCLUIDA; a replay changes nothing", async (t) => {
  const fake = fakePayments();
  try {
    await withServer(async (server) => {
      await configurePayments(server, FAKE_CREDENTIALS);
      const sockets = new SocketPool(server.url);
      try {
        for (const [i, provider] of PROVIDERS.entries()) {
          await t.step(provider.name, async () => {
            const tenant = await createTenant(server, `Paga ${provider.name}`);
            const inv = await openInvoice(server, tenant.companyId, Date.now() - 2 * DAY);
            const res = await tenant.admin.post("/subscription", checkout(inv.id));
            assert.equal(res.status, 200, JSON.stringify(res.body));
            const charge = { id: provider.chargeOf({ ...res.body, pixCode: res.body.pix?.qrcode.qrcode ?? null }, fake) };
            const eventId = `${9000 + i}`;
            // Mercado Pago's notification is read back: the fake holds the approved payment.
            fake.state.mpPayments.set(eventId, { id: 9000 + i, status: "approved", transaction_amount: inv.value, external_reference: `${inv.companyId}:${inv.id}`, preference_id: charge.id });
            const before = (await dueOf(server, tenant.companyId))!;
            const ws = await sockets.connect(tenant.admin.token!);
            const delivery = await provider.build(inv, charge, eventId, inv.value);
            const first = await postDelivery(server.url, delivery);
            assert.equal(first.status, 200, JSON.stringify(first.body));
            assert.deepEqual(first.body, { received: 1, settled: 1 });
            const frame = await ws.event(`company-${tenant.companyId}-payment`, (d) => d.action === "CONCLUIDA");
            const data = frame.data as { company: { dueDate: string }; invoice: { id: number; status: string; paidVia: string } };
            assert.equal(data.invoice.id, inv.id);
            assert.equal(data.invoice.status, "paid");
            assert.equal(data.invoice.paidVia, provider.name);
            const after = (await dueOf(server, tenant.companyId))!;
            assert.ok(after > Date.now() + 20 * DAY && after > before, `due date moved a period past today: ${new Date(after).toISOString()}`);
            assert.equal(data.company.dueDate, new Date(after).toISOString());
            assert.equal((await invoiceNow(server, inv)).status, "paid");
            // The gate lifts at once: a normal login works again.
            assert.equal((await server.client().post("/auth/login", { email: tenant.email, password: "demo1234" })).status, 200);

            const replay = await postDelivery(server.url, await provider.build(inv, charge, eventId, inv.value));
            assert.equal(replay.status, 200, "a verified replay is acknowledged");
            assert.deepEqual(replay.body, { received: 1, settled: 0 });
            assert.equal(await dueOf(server, tenant.companyId), after, "moved once");
            const history = await tenant.admin.get("/payments");
            assert.equal(history.status, 200);
            assert.equal((history.body.payments ?? history.body).length, 1, JSON.stringify(history.body));
          });
        }
      } finally {
        await sockets.closeAll();
      }
    }, { paymentApiUrls: fake.urls, publicUrl: PUBLIC_URL });
  } finally {
    await fake.close();
  }
});

Deno.test("forged and wrong payment events change nothing: bad signature, other company's invoice, lower amount, unknown charge", async () => {
  const fake = fakePayments();
  try {
    await withServer(async (server) => {
      await configurePayments(server, FAKE_CREDENTIALS);
      const demoId = server.demo!.companyId;
      const inv = await openInvoice(server, demoId, Date.now() - 2 * DAY);
      const before = await dueOf(server, demoId);
      const tenant = await createTenant(server, "Vizinha");
      const foreign = (await tenant.admin.get("/invoices/all")).body.invoices[0];
      const unchanged = async (why: string) => {
        assert.equal(await dueOf(server, demoId), before, why);
        assert.equal((await invoiceNow(server, inv)).status, "open", why);
        assert.equal((await tenant.admin.get(`/invoices/${foreign.id}`)).body.status, "open", why);
      };

      const forged = await stripeDelivery("whsec_guess", { eventId: "evt_f1", sessionId: "cs_x", reference: `${demoId}:${inv.id}`, amountCents: inv.value * 100 });
      assert.equal((await postDelivery(server.url, forged)).status, 401);
      assert.equal((await postDelivery(server.url, asaasDelivery("guess", { eventId: "e1", paymentId: "pay_x", reference: `${demoId}:${inv.id}`, value: inv.value }))).status, 401);
      assert.equal((await postDelivery(server.url, await mercadoPagoDelivery("guess", { paymentId: "1" }))).status, 401);
      assert.equal((await postDelivery(server.url, efiDelivery("guess", [{ txid: "x", endToEndId: "E1", valor: "199.90" }]))).status, 401);
      assert.equal((await postDelivery(server.url, { provider: "simulator", body: JSON.stringify({ id: "s1", type: "payment.paid", chargeId: "sim1", amount: 999 }), headers: { "x-simulator-signature": "00" } })).status, 401);
      const unknown = await fetch(`${server.url}/webhooks/payments/paypal`, { method: "POST", body: "{}" });
      assert.equal(unknown.status, 404);
      await unknown.body?.cancel();
      await unchanged("forged");

      // Genuine signature, but a reference naming the demo company with the neighbour's invoice.
      const crossed = await stripeDelivery(FAKE_CREDENTIALS.stripewebhooksecret, { eventId: "evt_c1", sessionId: "cs_unknown", reference: `${demoId}:${foreign.id}`, amountCents: 100_000 });
      const crossedRes = await postDelivery(server.url, crossed);
      assert.equal(crossedRes.status, 200);
      assert.deepEqual(crossedRes.body, { received: 1, settled: 0 });
      await unchanged("another company's invoice");

      // A charge id we remembered for the demo's invoice, with a reference naming another: refused.
      const res = await (await server.login("admin@demo.local")).post("/subscription", checkout(inv.id));
      const sessionId = res.body.stripeURL.split("/").at(-1);
      const disagree = await stripeDelivery(FAKE_CREDENTIALS.stripewebhooksecret, { eventId: "evt_c2", sessionId, reference: `${tenant.companyId}:${foreign.id}`, amountCents: 100_000 });
      assert.deepEqual((await postDelivery(server.url, disagree)).body, { received: 1, settled: 0 });
      await unchanged("charge and reference disagree");

      // Less than the invoice's value.
      const low = await stripeDelivery(FAKE_CREDENTIALS.stripewebhooksecret, { eventId: "evt_l1", sessionId, reference: `${demoId}:${inv.id}`, amountCents: Math.round(inv.value * 100) - 1 });
      assert.deepEqual((await postDelivery(server.url, low)).body, { received: 1, settled: 0 });
      const lowPix = efiDelivery(FAKE_CREDENTIALS.efiwebhooksecret, [{ txid: decodeBrCode(res.body.pix.qrcode.qrcode).txid!, endToEndId: "E-low", valor: "1.00" }]);
      assert.deepEqual((await postDelivery(server.url, lowPix)).body, { received: 1, settled: 0 });
      await unchanged("lower amount");

      // A Pix for a txid nobody issued.
      const stray = efiDelivery(FAKE_CREDENTIALS.efiwebhooksecret, [{ txid: "nobodys", endToEndId: "E-stray", valor: "500.00" }]);
      assert.deepEqual((await postDelivery(server.url, stray)).body, { received: 1, settled: 0 });
      await unchanged("unknown charge");

    }, { paymentApiUrls: fake.urls, publicUrl: PUBLIC_URL });
  } finally {
    await fake.close();
  }
});

Deno.test("the demo's simulator: POST /subscription offers its page, whose button pays and renews; not offered outside the demo", async (t) => {
  await t.step("demo", async () => {
    await withServer(async (server) => {
      const demoId = server.demo!.companyId;
      const inv = await openInvoice(server, demoId, Date.now() - 10 * DAY);
      const login = await server.client().post("/auth/login", { email: "admin@demo.local", password: "demo1234" });
      assert.equal(login.status, 402, "expired: billing-only token");
      const billing = server.client(login.body.token);
      const res = await billing.post("/subscription", checkout(inv.id));
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.pix, null, "no Pix key configured");
      // No BALCAO_PUBLIC_URL: a path on the checkout's own origin.
      assert.ok(res.body.simulatorURL.startsWith("/simulator/payments/"), res.body.simulatorURL);
      const url = new URL(res.body.simulatorURL, server.url).href;
      const page = await fetch(url);
      const html = await page.text();
      assert.equal(page.status, 200);
      assert.match(html, /data-testid="sim-pay"/);
      assert.match(page.headers.get("content-security-policy") ?? "", /form-action 'self'/);
      const pay = await fetch(`${url}/pay`, { method: "POST" });
      assert.equal(pay.status, 200);
      assert.match(await pay.text(), /Pagamento aprovado/);
      assert.equal((await invoiceNow(server, inv)).status, "paid");
      assert.equal((await invoiceNow(server, inv)).paidVia, "simulator");
      assert.ok((await dueOf(server, demoId))! > Date.now() + 20 * DAY);
      assert.equal((await server.client().post("/auth/login", { email: "admin@demo.local", password: "demo1234" })).status, 200);
      const again = await fetch(`${url}/pay`, { method: "POST" });
      assert.match(await again.text(), /já estava paga/);
    });
  });
  await t.step("another company of the demo's store renews nothing for free (#38)", async () => {
    await withServer(async (server) => {
      const tenant = await createTenant(server, "Segunda");
      const inv = await openInvoice(server, tenant.companyId, Date.now() - 10 * DAY);
      const dueBefore = await dueOf(server, tenant.companyId);
      const login = await server.client().post("/auth/login", { email: tenant.email, password: "demo1234" });
      assert.equal(login.status, 402, "expired: billing-only token");
      const res = await server.client(login.body.token).post("/subscription", checkout(inv.id));
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.simulatorURL, null, "the simulator is the demo company's only");
      // A simulator charge of this company (as one made before #38 was): its page and its
      // button are refused, and nothing is paid.
      const chargeId = `sim${tenant.companyId}x${inv.id}xold0000000000001`;
      await rememberCharge(server.deps, { invoiceId: inv.id, companyId: tenant.companyId, provider: "simulator", chargeId });
      const page = await fetch(`${server.url}/simulator/payments/${chargeId}`);
      assert.equal(page.status, 404);
      await page.body?.cancel();
      const pay = await fetch(`${server.url}/simulator/payments/${chargeId}/pay`, { method: "POST" });
      assert.equal(pay.status, 404);
      assert.doesNotMatch(await pay.text(), /Pagamento aprovado/);
      assert.equal((await invoiceNow(server, inv)).status, "open");
      assert.equal(await dueOf(server, tenant.companyId), dueBefore);
    });
  });
  await t.step("a store the demo seed did not mark", async () => {
    await withServer(async (server) => {
      await server.deps.kv.delete(["billing_demo"]);
      const owner = await server.login("super@balcao.local");
      await owner.put("/settings/efichavepix", { value: FAKE_CREDENTIALS.efichavepix });
      const tenant = await createTenant(server, "Sem Demo");
      const inv = (await tenant.admin.get("/invoices/all")).body.invoices[0];
      const res = await tenant.admin.post("/subscription", checkout(inv.id));
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.simulatorURL, null);
      const page = await fetch(`${server.url}/simulator/payments/sim1x1xabc`);
      assert.equal(page.status, 404);
      await page.body?.cancel();
    });
  });
});
