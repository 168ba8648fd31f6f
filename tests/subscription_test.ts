import assert from "node:assert/strict";
import { companies, PLATFORM } from "../actors/platform/collections.ts";
import { decodeBrCode } from "../domain/brcode.ts";
import { chargeOf } from "../server/billing/invoices.ts";
import type { TestServer } from "./helpers/server.ts";
import { withServer } from "./helpers/server.ts";
import { createTenant } from "./helpers/tenants.ts";
import { rawRequest } from "./helpers/raw_http.ts";
import { configurePayments, FAKE_CREDENTIALS, fakePayments, openInvoice, selfSignedP12 } from "./helpers/fake_payments.ts";

const DAY = 86_400_000;
/** The operator's BALCAO_PUBLIC_URL: Stripe's and Mercado Pago's links need one. */
const PUBLIC_URL = "https://balcao.example";

/** Moves company `id`'s due date (white-box: the billing area owns how it changes). */
async function setDueDate(server: TestServer, id: number, dueDate: number | null) {
  await companies.in(server.deps.system, PLATFORM).update(
    id,
    (old) => ({ ...old, dueDate }),
    () => new Error(`no company ${id}`),
  );
}

Deno.test("login: a company due yesterday is still inside its 3 working days of grace", async () => {
  await withServer(async (server) => {
    await setDueDate(server, server.demo!.companyId, Date.now() - DAY);
    const admin = await server.login("admin@demo.local");
    assert.equal((await admin.get("/users/")).status, 200);
  });
});

Deno.test("login past the grace: 402 with dueDate and a billing-only token", async () => {
  await withServer(async (server) => {
    const due = Date.now() - 10 * DAY;
    await setDueDate(server, server.demo!.companyId, due);
    const client = server.client();
    const login = await client.post("/auth/login", { email: "admin@demo.local", password: "demo1234" });
    assert.equal(login.status, 402);
    assert.equal(login.body.error, "ERR_SUBSCRIPTION_EXPIRED");
    assert.equal(login.body.dueDate, new Date(due).toISOString());
    assert.equal(typeof login.body.token, "string");

    client.token = login.body.token;
    const refused = await client.get("/users/");
    assert.equal(refused.status, 402);
    assert.equal(refused.body.error, "ERR_SUBSCRIPTION_EXPIRED");
    assert.equal(refused.body.dueDate, new Date(due).toISOString());
    const me = await client.get("/auth/me");
    assert.equal(me.status, 200);
    assert.equal(me.body.email, "admin@demo.local");
    // What renewing needs stays readable: the own company, its plan, the plans.
    const own = await client.get(`/companies/${server.demo!.companyId}`);
    assert.equal(own.status, 200);
    assert.equal(own.body.dueDate, new Date(due).toISOString());
    assert.equal((await client.get(`/companies/listPlan/${server.demo!.companyId}`)).status, 200);
    assert.equal((await client.get("/plans/all")).status, 200);
    assert.equal((await client.get(`/companies/${server.demo!.platformId}`)).status, 404);

    // A refresh still gives a billing-only token while the company is past its grace.
    const refreshed = await client.post("/auth/refresh_token");
    assert.equal(refreshed.status, 200);
    client.token = refreshed.body.token;
    assert.equal((await client.get("/users/")).status, 402);

    // Paying (a new due date) opens the product again after a refresh.
    await setDueDate(server, server.demo!.companyId, Date.now() + 30 * DAY);
    assert.equal((await client.get("/users/")).status, 402);
    client.token = (await client.post("/auth/refresh_token")).body.token;
    assert.equal((await client.get("/users/")).status, 200);
  });
});

Deno.test("a full token stops working (402) once its company falls past the grace", async () => {
  await withServer(async (server) => {
    const agent = await server.login("agent@demo.local");
    assert.equal((await agent.get("/users/")).status, 200);
    await setDueDate(server, server.demo!.companyId, Date.now() - 10 * DAY);
    assert.equal((await agent.get("/users/")).status, 402);
    assert.equal((await agent.get("/auth/me")).status, 200);
  });
});

Deno.test("the platform company (the super user's) is never gated, for any of its users", async () => {
  await withServer(async (server) => {
    const platform = server.demo!.platformId;
    const owner = await server.login("super@balcao.local");
    const staff = await owner.post("/users", {
      name: "Equipe",
      email: "equipe@balcao.local",
      password: "12345",
      profile: "admin",
    });
    assert.equal(staff.status, 201);
    await setDueDate(server, platform, Date.now() - 60 * DAY);
    const again = await server.login("super@balcao.local");
    assert.equal((await again.get("/users/")).status, 200);
    const member = await server.login("equipe@balcao.local", "12345");
    assert.equal((await member.get("/users/")).status, 200);
  });
});

// ---- POST /subscription (issue #21): the checkout's charge through every configured provider ----

/** The checkout's body for `invoiceId` (the dialog's fields; price is the client's, ignored). */
function checkout(invoiceId: number, extra: Record<string, unknown> = {}) {
  return {
    firstName: "Maria",
    lastName: "Souza",
    address2: "Rua das Flores, 10",
    city: "Curitiba",
    state: "PR",
    zipcode: "80010-000",
    country: "BR",
    plan: JSON.stringify({ price: 1, users: 50, connections: 10 }),
    price: 1,
    users: 50,
    connections: 10,
    invoiceId,
    ...extra,
  };
}

Deno.test("POST /subscription: a Pix BR Code the decoder accepts, every configured provider's link, the invoice's amount", async () => {
  const fake = fakePayments();
  try {
    await withServer(async (server) => {
      await configurePayments(server, FAKE_CREDENTIALS);
      const invoice = await openInvoice(server, server.demo!.companyId, Date.now() + 5 * DAY);
      const admin = await server.login("admin@demo.local");
      const res = await admin.post("/subscription", checkout(invoice.id, { cardNumber: "4111111111111111", cvv: "123", nameOnCard: "MARIA" }));
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.valorext, invoice.value, "the invoice's value, not the body's price");
      assert.equal(res.body.invoiceId, invoice.id);
      // Without Efí's certificate: a static code for the key, with the amount and our txid.
      const pix = decodeBrCode(res.body.pix.qrcode.qrcode);
      assert.equal(pix.key, FAKE_CREDENTIALS.efichavepix);
      assert.equal(pix.amount, invoice.value);
      assert.match(res.body.pix.qrcode.imagemQrcode, /^data:image\/png;base64,iVBOR/);
      assert.match(res.body.stripeURL, /^https:\/\/checkout\.stripe\.com\//);
      assert.match(res.body.asaasURL, /^https:\/\/www\.asaas\.com\/i\//);
      assert.match(res.body.mercadopagoURL, /mercadopago\.com\.br/);
      assert.ok(res.body.simulatorURL.startsWith(`${PUBLIC_URL}/simulator/payments/`), res.body.simulatorURL);
      // Each provider's charge id leads back to the invoice (webhooks carrying only that id).
      const stripeSession = fake.callsOf("stripe")[0];
      assert.equal(stripeSession.form.get("line_items[0][price_data][unit_amount]"), String(Math.round(invoice.value * 100)));
      assert.equal(stripeSession.form.get("success_url"), `${PUBLIC_URL}/financeiro`);
      const sessionId = res.body.stripeURL.split("/").at(-1);
      assert.deepEqual(await chargeOf(server.deps, "stripe", sessionId), { invoiceId: invoice.id, companyId: invoice.companyId });
      assert.deepEqual(await chargeOf(server.deps, "efi", pix.txid!), { invoiceId: invoice.id, companyId: invoice.companyId });
      // The card fields went nowhere: not to a provider, not to the store.
      for (const call of fake.calls) assert.ok(!call.raw.includes("4111111111111111"), `${call.provider} got the card number`);
      for await (const entry of server.deps.kv.list({ prefix: [] })) {
        assert.ok(!JSON.stringify(entry.value ?? null).includes("4111111111111111"), `stored under ${JSON.stringify(entry.key)}`);
      }
    }, { paymentApiUrls: fake.urls, publicUrl: PUBLIC_URL });
  } finally {
    await fake.close();
  }
});

Deno.test("POST /subscription: a provider down or slow answers null, the others still answer, within the timeout", async () => {
  const fake = fakePayments();
  try {
    await withServer(async (server) => {
      await configurePayments(server, FAKE_CREDENTIALS);
      const invoice = await openInvoice(server, server.demo!.companyId, Date.now() + 5 * DAY);
      fake.state.down.add("stripe");
      fake.state.hang.add("asaas");
      const admin = await server.login("admin@demo.local");
      const started = Date.now();
      const res = await admin.post("/subscription", checkout(invoice.id));
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.ok(Date.now() - started < 5000, `answered in ${Date.now() - started} ms`);
      assert.equal(res.body.stripeURL, null);
      assert.equal(res.body.asaasURL, null);
      assert.match(res.body.mercadopagoURL, /mercadopago/);
      assert.ok(decodeBrCode(res.body.pix.qrcode.qrcode));
    }, { paymentApiUrls: fake.urls, paymentTimeoutMs: 400, publicUrl: PUBLIC_URL });
  } finally {
    await fake.close();
  }
});

Deno.test("POST /subscription with a forged Host header: no link is built on it (#38)", async (t) => {
  const fake = fakePayments();
  /** The checkout as an attacker sends it: the admin's token and `Host: evil.example`. */
  const forged = async (server: TestServer, invoiceId: number) => {
    const admin = await server.login("admin@demo.local");
    const res = await rawRequest(server.url, "POST", "/subscription", {
      host: "evil.example",
      authorization: `Bearer ${admin.token}`,
      "content-type": "application/json",
    }, JSON.stringify(checkout(invoiceId)));
    assert.equal(res.status, 200, res.body);
    assert.doesNotMatch(res.body, /evil\.example/);
    for (const call of fake.calls) assert.doesNotMatch(call.raw, /evil\.example/, `${call.provider} was handed the forged host`);
    return JSON.parse(res.body);
  };
  try {
    await t.step("without BALCAO_PUBLIC_URL: Stripe and Mercado Pago are not asked, the simulator is a same-origin path", async () => {
      await withServer(async (server) => {
        await configurePayments(server, FAKE_CREDENTIALS);
        const invoice = await openInvoice(server, server.demo!.companyId, Date.now() + 5 * DAY);
        const body = await forged(server, invoice.id);
        assert.equal(body.stripeURL, null);
        assert.equal(body.mercadopagoURL, null);
        assert.equal(fake.callsOf("stripe").length, 0);
        assert.equal(fake.callsOf("mercadopago").length, 0);
        assert.ok(body.simulatorURL.startsWith("/simulator/payments/"), body.simulatorURL);
        assert.ok(body.pix, "Pix needs no return URL");
      }, { paymentApiUrls: fake.urls });
    });
    await t.step("with BALCAO_PUBLIC_URL: every link and notification URL is on it", async () => {
      await withServer(async (server) => {
        await configurePayments(server, FAKE_CREDENTIALS);
        const invoice = await openInvoice(server, server.demo!.companyId, Date.now() + 5 * DAY);
        const body = await forged(server, invoice.id);
        assert.ok(body.simulatorURL.startsWith(`${PUBLIC_URL}/simulator/payments/`), body.simulatorURL);
        assert.equal(fake.callsOf("stripe")[0].form.get("success_url"), `${PUBLIC_URL}/financeiro`);
        assert.equal(fake.callsOf("mercadopago")[0].json.notification_url, `${PUBLIC_URL}/webhooks/payments/mercadopago`);
      }, { paymentApiUrls: fake.urls, publicUrl: PUBLIC_URL });
    });
  } finally {
    await fake.close();
  }
});

Deno.test("POST /subscription: Efí's API over the uploaded .p12 gives a dynamic code", async () => {
  const fake = fakePayments();
  try {
    await withServer(async (server) => {
      await configurePayments(server, { eficlientid: FAKE_CREDENTIALS.eficlientid, eficlientsecret: FAKE_CREDENTIALS.eficlientsecret, efichavepix: FAKE_CREDENTIALS.efichavepix });
      const owner = await server.login("super@balcao.local");
      const form = new FormData();
      form.append("file", new File([(await selfSignedP12()).p12], "certificado.p12", { type: "application/x-pkcs12" }));
      const upload = await owner.post("/settings/cert-upload?ref=certificadoEfi", form);
      assert.equal(upload.status, 200, JSON.stringify(upload.body));
      const invoice = await openInvoice(server, server.demo!.companyId, Date.now() + 5 * DAY);
      const admin = await server.login("admin@demo.local");
      const res = await admin.post("/subscription", checkout(invoice.id));
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const pix = decodeBrCode(res.body.pix.qrcode.qrcode);
      assert.equal(pix.pointOfInitiation, "12");
      assert.equal(pix.amount, invoice.value);
      const cob = fake.callsOf("efi").find((c) => c.method === "PUT")!;
      assert.equal(cob.json.valor.original, invoice.value.toFixed(2));
      assert.deepEqual(await chargeOf(server.deps, "efi", cob.path.split("/").at(-1)!), { invoiceId: invoice.id, companyId: invoice.companyId });
      assert.equal(res.body.stripeURL, null, "providers without keys are not asked");
      assert.equal(fake.callsOf("stripe").length, 0);
    }, { paymentApiUrls: fake.urls });
  } finally {
    await fake.close();
  }
});

Deno.test("POST /subscription: §5 messages, paid 409, another company's 404, agent 403, expired company's billing token allowed", async () => {
  await withServer(async (server) => {
    await configurePayments(server, { efichavepix: FAKE_CREDENTIALS.efichavepix });
    const admin = await server.login("admin@demo.local");
    const bad = await admin.post("/subscription", { ...checkout(1), firstName: "", address2: "", city: "", zipcode: "123", country: "BR" });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.fields.firstName, "O nome completo é obrigatório");
    assert.equal(bad.body.fields.address2, "O Endereço é obrigatório");
    assert.equal(bad.body.fields.city, "Cidade é obrigatória");
    const noZip = await admin.post("/subscription", { ...checkout(1), zipcode: "" });
    assert.equal(noZip.body.fields.zipcode, "CEP é obrigatório");
    const badZip = await admin.post("/subscription", { ...checkout(1), zipcode: "8001" });
    assert.equal(badZip.body.fields.zipcode, "Formato de CEP inválido");
    const noCountry = await admin.post("/subscription", { ...checkout(1), country: "" });
    assert.equal(noCountry.body.fields.country, "País é obrigatório");

    const tenant = await createTenant(server, "Outra Empresa");
    const foreign = (await tenant.admin.get("/invoices/all")).body.invoices[0];
    const other = await admin.post("/subscription", checkout(foreign.id));
    assert.equal(other.status, 404);
    assert.equal(other.body.error, "ERR_NO_INVOICE_FOUND");

    const agent = await server.login("agent@demo.local");
    const invoice = await openInvoice(server, server.demo!.companyId, Date.now() - 10 * DAY);
    assert.equal((await agent.post("/subscription", checkout(invoice.id))).status, 403);

    // Past the grace: the login answers 402 with a billing-only token that may still pay.
    const login = await server.client().post("/auth/login", { email: "admin@demo.local", password: "demo1234" });
    assert.equal(login.status, 402);
    const billing = server.client(login.body.token);
    const paying = await billing.post("/subscription", checkout(invoice.id));
    assert.equal(paying.status, 200, JSON.stringify(paying.body));
    assert.equal(decodeBrCode(paying.body.pix.qrcode.qrcode).amount, invoice.value);

    const owner = await server.login("super@balcao.local");
    assert.equal((await owner.post(`/invoices/${invoice.id}/pay`, { reason: "pago no caixa" })).status, 200);
    const paid = await billing.post("/subscription", checkout(invoice.id));
    assert.equal(paid.status, 409);
    assert.equal(paid.body.error, "ERR_CONFLICT");
  });
});
