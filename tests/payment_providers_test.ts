/**
 * Each payment adapter against its local fake (tests/helpers/fake_payments.ts): the request's
 * shape, auth header, amount in the provider's unit (Stripe centavos, the others reais) and our
 * reference; and its webhook check (genuine accepted, forged refused).
 */
import assert from "node:assert/strict";
import { decodeBrCode } from "../domain/brcode.ts";
import { asaas } from "../server/billing/providers/asaas.ts";
import { efi } from "../server/billing/providers/efi.ts";
import { mercadopago } from "../server/billing/providers/mercadopago.ts";
import { hmacHex } from "../server/billing/providers/http.ts";
import { p12ToPem } from "../server/billing/providers/p12.ts";
import { simulator, simulatorDelivery } from "../server/billing/providers/simulator.ts";
import { stripe } from "../server/billing/providers/stripe.ts";
import { type ChargeInput, type ProviderContext, ProviderError, type WebhookRequest } from "../server/billing/providers/types.ts";
import { asaasDelivery, type Delivery, efiDelivery, FAKE_CREDENTIALS, fakePayments, mercadoPagoDelivery, selfSignedP12, stripeDelivery } from "./helpers/fake_payments.ts";

const DAY = 86_400_000;

const INPUT: ChargeInput = {
  invoiceId: 42,
  companyId: 7,
  companyName: "Demo",
  detail: "Plano Completo — 2026-12",
  amount: 149.9,
  dueDate: Date.UTC(2026, 11, 10),
  payer: { name: "Maria Souza", email: "maria@demo.local", address: "Rua A, 1", city: "Curitiba", state: "PR", zipcode: "80000-000", country: "BR" },
  reference: "7:42",
};

function context(urls: ProviderContext["urls"], settings: Record<string, string> = FAKE_CREDENTIALS, extra: Partial<ProviderContext> = {}): ProviderContext {
  return { settings, urls, platformName: "Balcão", origin: "http://balcao.test", pixCertificate: null, demoCompanyId: null, timeoutMs: 2000, simulatorKey: "sim-key", ...extra };
}

function request(d: Delivery): WebhookRequest {
  return { headers: new Headers(d.headers), rawBody: d.body, query: d.query ?? {} };
}

Deno.test("stripe: a Checkout Session in centavos with our reference; signed events only", async (t) => {
  const fake = fakePayments();
  try {
    const ctx = context(fake.urls);
    await t.step("createCharge posts the form with the secret key", async () => {
      const charge = await stripe.createCharge(ctx, INPUT);
      assert.match(charge.chargeId, /^cs_test_/);
      assert.match(charge.url!, /^https:\/\/checkout\.stripe\.com\//);
      const [call] = fake.callsOf("stripe");
      assert.equal(call.path, "/v1/checkout/sessions");
      assert.equal(call.headers.get("authorization"), "Bearer sk_test_balcao");
      assert.match(call.headers.get("content-type")!, /application\/x-www-form-urlencoded/);
      assert.equal(call.form.get("mode"), "payment");
      assert.equal(call.form.get("line_items[0][price_data][unit_amount]"), "14990");
      assert.equal(call.form.get("line_items[0][price_data][currency]"), "brl");
      assert.equal(call.form.get("line_items[0][quantity]"), "1");
      assert.equal(call.form.get("client_reference_id"), "7:42");
      assert.equal(call.form.get("metadata[reference]"), "7:42");
      assert.equal(call.form.get("customer_email"), "maria@demo.local");
      assert.equal(call.form.get("success_url"), "http://balcao.test/financeiro");
    });
    await t.step("a wrong key is a ProviderError, not a link", async () => {
      await assert.rejects(stripe.createCharge(context(fake.urls, { ...FAKE_CREDENTIALS, stripeprivatekey: "sk_wrong" }), INPUT), ProviderError);
    });
    await t.step("no public URL: refused before Stripe is called", async () => {
      const before = fake.callsOf("stripe").length;
      await assert.rejects(stripe.createCharge({ ...ctx, origin: null }, INPUT), /BALCAO_PUBLIC_URL/);
      assert.equal(fake.callsOf("stripe").length, before);
    });
    await t.step("verifyWebhook: genuine, bad signature, stale timestamp, no secret", async () => {
      const good = await stripeDelivery(FAKE_CREDENTIALS.stripewebhooksecret, { eventId: "evt_1", sessionId: "cs_test_1", reference: "7:42", amountCents: 14990 });
      assert.deepEqual(await stripe.verifyWebhook(ctx, request(good)), [{ eventId: "evt_1", chargeId: "cs_test_1", reference: "7:42", paid: true, amount: 149.9 }]);
      const forged = await stripeDelivery("whsec_other", { eventId: "evt_2", sessionId: "cs_test_1", reference: "7:42", amountCents: 14990 });
      assert.equal(await stripe.verifyWebhook(ctx, request(forged)), null);
      const tampered = { ...good, body: good.body.replace("14990", "99") };
      assert.equal(await stripe.verifyWebhook(ctx, request(tampered)), null);
      const stale = await stripeDelivery(FAKE_CREDENTIALS.stripewebhooksecret, { eventId: "evt_3", sessionId: "cs_test_1", reference: "7:42", amountCents: 14990, t: Math.floor(Date.now() / 1000) - 600 });
      assert.equal(await stripe.verifyWebhook(ctx, request(stale)), null);
      assert.equal(await stripe.verifyWebhook(context(fake.urls, { ...FAKE_CREDENTIALS, stripewebhooksecret: "" }), request(good)), null);
      const unpaid = await stripeDelivery(FAKE_CREDENTIALS.stripewebhooksecret, { eventId: "evt_4", sessionId: "cs_test_1", reference: "7:42", amountCents: 14990, paid: false });
      assert.equal((await stripe.verifyWebhook(ctx, request(unpaid)))![0].paid, false);
      const dollars = await stripeDelivery(FAKE_CREDENTIALS.stripewebhooksecret, { eventId: "evt_5", sessionId: "cs_test_1", reference: "7:42", amountCents: 14990 });
      const usd = { ...dollars, body: dollars.body.replace('"currency":"brl"', '"currency":"usd"') };
      const t = usd.headers["stripe-signature"].match(/t=(\d+)/)![1];
      usd.headers = { "stripe-signature": `t=${t},v1=${await hmacHex(FAKE_CREDENTIALS.stripewebhooksecret, `${t}.${usd.body}`)}` };
      assert.equal((await stripe.verifyWebhook(ctx, request(usd)))![0].amount, undefined, "USD is no amount in reais");
    });
  } finally {
    await fake.close();
  }
});

Deno.test("asaas: customer then payment in reais with externalReference; token header checked", async (t) => {
  const fake = fakePayments();
  try {
    const ctx = context(fake.urls);
    await t.step("createCharge", async () => {
      const overdue = { ...INPUT, dueDate: Date.now() - 10 * DAY };
      const charge = await asaas.createCharge(ctx, overdue);
      assert.match(charge.chargeId, /^pay_/);
      assert.match(charge.url!, /^https:\/\/www\.asaas\.com\/i\//);
      const [lookup, customer, payment] = fake.callsOf("asaas");
      assert.equal(lookup.method, "GET");
      assert.equal(lookup.query.get("externalReference"), "company-7");
      assert.equal(customer.path, "/v3/customers");
      assert.equal(customer.json.externalReference, "company-7");
      assert.equal(customer.headers.get("access_token"), FAKE_CREDENTIALS.asaastoken);
      assert.equal(customer.json.name, "Maria Souza");
      assert.equal(customer.json.postalCode, "80000000");
      assert.equal(payment.path, "/v3/payments");
      assert.match(payment.json.customer, /^cus_\d+$/);
      assert.equal(payment.json.value, 149.9);
      assert.equal(payment.json.billingType, "UNDEFINED");
      assert.equal(payment.json.externalReference, "7:42");
      // An overdue invoice is charged for today (Asaas refuses past due dates).
      assert.equal(payment.json.dueDate, new Date().toISOString().slice(0, 10));
      // A second checkout of the company finds its customer instead of creating another.
      await asaas.createCharge(ctx, INPUT);
      assert.deepEqual(fake.callsOf("asaas").slice(3).map((c) => `${c.method} ${c.path}`), ["GET /v3/customers", "POST /v3/payments"]);
      assert.equal(fake.callsOf("asaas").at(-1)!.json.customer, payment.json.customer);
    });
    await t.step("verifyWebhook", async () => {
      const good = asaasDelivery(FAKE_CREDENTIALS.asaaswebhooktoken, { eventId: "evt_a1", paymentId: "pay_2", reference: "7:42", value: 149.9 });
      assert.deepEqual(await asaas.verifyWebhook(ctx, request(good)), [{ eventId: "evt_a1", chargeId: "pay_2", reference: "7:42", paid: true, amount: 149.9 }]);
      assert.equal(await asaas.verifyWebhook(ctx, request({ ...good, headers: { "asaas-access-token": "guess" } })), null);
      assert.equal(await asaas.verifyWebhook(ctx, request({ ...good, headers: {} })), null);
      const created = asaasDelivery(FAKE_CREDENTIALS.asaaswebhooktoken, { eventId: "evt_a2", paymentId: "pay_2", reference: "7:42", value: 149.9, event: "PAYMENT_CREATED" });
      assert.equal((await asaas.verifyWebhook(ctx, request(created)))![0].paid, false);
    });
  } finally {
    await fake.close();
  }
});

Deno.test("mercadopago: a preference in reais; x-signature over the manifest, then the payment read back", async (t) => {
  const fake = fakePayments();
  try {
    const ctx = context(fake.urls);
    await t.step("createCharge", async () => {
      const charge = await mercadopago.createCharge(ctx, INPUT);
      assert.match(charge.url!, /mercadopago\.com\.br\/checkout/);
      const [call] = fake.callsOf("mercadopago");
      assert.equal(call.path, "/checkout/preferences");
      assert.equal(call.headers.get("authorization"), `Bearer ${FAKE_CREDENTIALS.mpaccesstoken}`);
      assert.deepEqual(call.json.items, [{ id: "invoice-42", title: INPUT.detail, quantity: 1, unit_price: 149.9, currency_id: "BRL" }]);
      assert.equal(call.json.external_reference, "7:42");
      assert.equal(call.json.notification_url, "http://balcao.test/webhooks/payments/mercadopago");
      await assert.rejects(mercadopago.createCharge({ ...ctx, origin: null }, INPUT), /BALCAO_PUBLIC_URL/);
      assert.equal(fake.callsOf("mercadopago").length, 1, "no public URL: Mercado Pago is not called");
    });
    await t.step("verifyWebhook", async () => {
      fake.state.mpPayments.set("987654321", { id: 987654321, status: "approved", transaction_amount: 149.9, external_reference: "7:42", preference_id: "123456-pref-1" });
      const good = await mercadoPagoDelivery(FAKE_CREDENTIALS.mpwebhooksecret, { paymentId: "987654321" });
      assert.deepEqual(await mercadopago.verifyWebhook(ctx, request(good)), [{ eventId: "payment:987654321", chargeId: "123456-pref-1", reference: "7:42", paid: true, amount: 149.9 }]);
      const read = fake.callsOf("mercadopago").at(-1)!;
      assert.equal(read.method, "GET");
      assert.equal(read.path, "/v1/payments/987654321");
      const forged = await mercadoPagoDelivery("not-the-secret", { paymentId: "987654321" });
      assert.equal(await mercadopago.verifyWebhook(ctx, request(forged)), null);
      // The signature covers data.id: the same header with another payment id is refused.
      assert.equal(await mercadopago.verifyWebhook(ctx, request({ ...good, query: { "data.id": "111", type: "payment" } })), null);
      fake.state.mpPayments.set("555", { id: 555, status: "pending", transaction_amount: 149.9, external_reference: "7:42" });
      const pending = await mercadoPagoDelivery(FAKE_CREDENTIALS.mpwebhooksecret, { paymentId: "555" });
      assert.equal((await mercadopago.verifyWebhook(ctx, request(pending)))![0].paid, false);
    });
  } finally {
    await fake.close();
  }
});

Deno.test("efi: a static BR Code from the key alone; with credentials and .p12, OAuth and PUT /v2/cob", async (t) => {
  const fake = fakePayments();
  const dir = await Deno.makeTempDir({ prefix: "balcao-efi-" });
  try {
    await t.step("static: key, amount and our txid, decodable", async () => {
      const ctx = context(fake.urls, { efichavepix: FAKE_CREDENTIALS.efichavepix });
      assert.equal(efi.configured(ctx, INPUT.companyId), true);
      const charge = await efi.createCharge(ctx, INPUT);
      const decoded = decodeBrCode(charge.pix!.payload);
      assert.equal(decoded.key, FAKE_CREDENTIALS.efichavepix);
      assert.equal(decoded.amount, 149.9);
      assert.equal(decoded.txid, charge.chargeId);
      assert.match(charge.chargeId, /^blc7x42x[0-9a-f]+$/);
      assert.equal(charge.chargeId.length, 25);
      assert.equal(decoded.merchantName, "Balcao");
      assert.equal(fake.callsOf("efi").length, 0);
    });
    await t.step("p12ToPem reads a password-less .p12", async () => {
      const { p12, certPem } = await selfSignedP12();
      await Deno.writeFile(`${dir}/cert.p12`, p12);
      const pem = await p12ToPem(`${dir}/cert.p12`);
      assert.equal(pem.cert.trim().replace(/\r/g, ""), certPem.trim());
      assert.match(pem.key, /-----BEGIN PRIVATE KEY-----/);
      await Deno.writeTextFile(`${dir}/bad.p12`, "not a certificate");
      await assert.rejects(p12ToPem(`${dir}/bad.p12`));
    });
    await t.step("API: OAuth with Basic id:secret, then the charge in reais with the key", async () => {
      const ctx = context(fake.urls, FAKE_CREDENTIALS, { pixCertificate: `${dir}/cert.p12` });
      const charge = await efi.createCharge(ctx, INPUT);
      const [oauth, cob] = fake.callsOf("efi");
      assert.equal(oauth.method, "POST");
      assert.equal(oauth.path, "/oauth/token");
      assert.equal(oauth.headers.get("authorization"), `Basic ${btoa(`${FAKE_CREDENTIALS.eficlientid}:${FAKE_CREDENTIALS.eficlientsecret}`)}`);
      assert.deepEqual(oauth.json, { grant_type: "client_credentials" });
      assert.equal(cob.method, "PUT");
      assert.match(cob.path, /^\/v2\/cob\/[A-Za-z0-9]{32}$/);
      assert.equal(cob.headers.get("authorization"), "Bearer efi-access-token");
      assert.deepEqual(cob.json.valor, { original: "149.90" });
      assert.equal(cob.json.chave, FAKE_CREDENTIALS.efichavepix);
      assert.equal(charge.chargeId, cob.path.slice("/v2/cob/".length));
      const decoded = decodeBrCode(charge.pix!.payload);
      assert.equal(decoded.pointOfInitiation, "12");
      assert.match(decoded.location!, /\/qr\/v2\//);
      assert.equal(decoded.amount, 149.9);
    });
    await t.step("verifyWebhook: hmac query, batched Pix", async () => {
      const ctx = context(fake.urls);
      const good = efiDelivery(FAKE_CREDENTIALS.efiwebhooksecret, [{ txid: "blc7x42xabc", endToEndId: "E1803615020261126", valor: "149.90" }]);
      assert.deepEqual(await efi.verifyWebhook(ctx, request(good)), [{ eventId: "E1803615020261126", chargeId: "blc7x42xabc", paid: true, amount: 149.9 }]);
      assert.equal(await efi.verifyWebhook(ctx, request({ ...good, query: { hmac: "wrong" } })), null);
      assert.equal(await efi.verifyWebhook(ctx, request({ ...good, query: {} })), null);
    });
  } finally {
    await fake.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("simulator: offered only to the demo company; its deliveries are signed with the server's key", async () => {
  const ctx = context({ stripe: "", asaas: "", mercadopago: "", efi: "" }, {}, { demoCompanyId: INPUT.companyId });
  assert.equal(simulator.configured(ctx, INPUT.companyId), true);
  assert.equal(simulator.configured(ctx, INPUT.companyId + 1), false, "another company of the demo store");
  assert.equal(simulator.configured({ ...ctx, demoCompanyId: null }, INPUT.companyId), false);
  await assert.rejects(simulator.createCharge(ctx, { ...INPUT, companyId: INPUT.companyId + 1 }), /not the demo company/);
  const charge = await simulator.createCharge(ctx, INPUT);
  assert.equal(charge.url, `http://balcao.test/simulator/payments/${charge.chargeId}`);
  // Without a public URL: a path on the checkout's own origin, never a Host header's.
  assert.equal((await simulator.createCharge({ ...ctx, origin: null }, INPUT)).url?.startsWith("/simulator/payments/sim7x42x"), true);
  const delivery = await simulatorDelivery(ctx.simulatorKey, { chargeId: charge.chargeId, amount: 149.9 });
  const req = (signature: string, body = delivery.body): WebhookRequest => ({ headers: new Headers({ "x-simulator-signature": signature }), rawBody: body, query: {} });
  const [event] = (await simulator.verifyWebhook(ctx, req(delivery.signature)))!;
  assert.equal(event.chargeId, charge.chargeId);
  assert.equal(event.paid, true);
  assert.equal(await simulator.verifyWebhook(ctx, req("00")), null);
  assert.equal(await simulator.verifyWebhook({ ...ctx, demoCompanyId: null }, req(delivery.signature)), null);
  // Signed by the server but for another company's charge: refused.
  const other = await simulatorDelivery(ctx.simulatorKey, { chargeId: "sim8x42xabc", amount: 149.9 });
  assert.equal(await simulator.verifyWebhook(ctx, req(other.signature, other.body)), null);
});
