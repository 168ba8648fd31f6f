/**
 * Local fake payment providers (issue #21) on one loopback server, each under its own prefix
 * (`/stripe`, `/asaas`, `/mercadopago`, `/efi`), built from the providers' public API shapes:
 * - Stripe: POST /v1/checkout/sessions (form-encoded, Bearer secret key) → { id: "cs_test_…", url }.
 * - Asaas: GET /v3/customers?externalReference= → { data: [...] }; POST /v3/customers → { id: "cus_…" }; POST /v3/payments → { id: "pay_…", invoiceUrl }
 *   (header access_token).
 * - Mercado Pago: POST /checkout/preferences → { id, init_point }; GET /v1/payments/{id} →
 *   the payment the test put in `state.mpPayments` (Bearer access token).
 * - Efí: POST /oauth/token (Basic id:secret, grant_type client_credentials) → { access_token };
 *   PUT /v2/cob/{txid} → { txid, status: "ATIVA", loc, pixCopiaECola }.
 * Wrong credentials answer 401 as the providers do. Every call is recorded; `state.down`
 * makes a provider answer 503 (`state.hang`: no answer until the fake closes) to show one provider down does not fail
 * the others. Signed webhook deliveries are built with the `*Delivery` helpers and posted to
 * our server with `postDelivery`.
 */
import forge from "node-forge";
import { companies, PLATFORM } from "../../actors/platform/collections.ts";
import { listInvoices, syncInvoices } from "../../actors/invoices/mod.ts";
import { dynamicBrCode } from "../../domain/brcode.ts";
import type { Invoice } from "../../domain/invoice.ts";
import type { TestServer } from "./server.ts";
import { hmacHex } from "../../server/billing/providers/http.ts";
import { mercadoPagoManifest } from "../../server/billing/providers/mercadopago.ts";
import type { PaymentApiUrls, ProviderName } from "../../server/billing/providers/types.ts";

/** One request the fake received. */
export interface PaymentCall {
  provider: keyof PaymentApiUrls;
  method: string;
  path: string;
  headers: Headers;
  raw: string;
  // deno-lint-ignore no-explicit-any -- tests assert on the posted JSON shapes
  json: any;
  form: URLSearchParams;
  query: URLSearchParams;
}

/** Credentials the fake accepts (the same values the tests store as settings). */
export const FAKE_CREDENTIALS = {
  stripeprivatekey: "sk_test_balcao",
  stripewebhooksecret: "whsec_balcao",
  asaastoken: "$aact_balcao",
  asaaswebhooktoken: "asaas-hook-token",
  mpaccesstoken: "APP_USR-balcao",
  mpwebhooksecret: "mp-hook-secret",
  eficlientid: "Client_Id_balcao",
  eficlientsecret: "Client_Secret_balcao",
  efichavepix: "financeiro@balcao.local",
  efiwebhooksecret: "efi-hook-hmac",
} as const;

/** A Mercado Pago payment as GET /v1/payments/{id} answers it. */
export interface FakeMpPayment {
  id: number;
  status: "approved" | "pending" | "rejected";
  transaction_amount: number;
  external_reference: string;
  preference_id?: string;
}

/** Starts the fakes; `close()` when done. */
export function fakePayments() {
  const calls: PaymentCall[] = [];
  const state = {
    down: new Set<keyof PaymentApiUrls>(),
    hang: new Set<keyof PaymentApiUrls>(),
    mpPayments: new Map<string, FakeMpPayment>(),
    asaasCustomers: [] as Array<{ id: string; name: string; externalReference: string }>,
    seq: 0,
  };
  // A hanging provider answers only when the fake closes (so the test ends without waiting).
  const released = Promise.withResolvers<void>();
  const unauthorized = () => Response.json({ error: "unauthorized", message: "Invalid credentials" }, { status: 401 });

  function stripe(call: PaymentCall): Response {
    if (call.headers.get("authorization") !== `Bearer ${FAKE_CREDENTIALS.stripeprivatekey}`) return unauthorized();
    if (call.method === "POST" && call.path === "/v1/checkout/sessions") {
      const id = `cs_test_${++state.seq}`;
      return Response.json({ id, object: "checkout.session", url: `https://checkout.stripe.com/c/pay/${id}`, amount_total: Number(call.form.get("line_items[0][price_data][unit_amount]")), currency: "brl", client_reference_id: call.form.get("client_reference_id"), payment_status: "unpaid", status: "open" });
    }
    return Response.json({ error: { type: "invalid_request_error", message: "Unrecognized request URL" } }, { status: 404 });
  }

  function asaas(call: PaymentCall): Response {
    if (call.headers.get("access_token") !== FAKE_CREDENTIALS.asaastoken) return unauthorized();
    if (call.method === "GET" && call.path === "/v3/customers") {
      const data = state.asaasCustomers.filter((c) => c.externalReference === call.query.get("externalReference"));
      return Response.json({ object: "list", hasMore: false, totalCount: data.length, limit: 10, offset: 0, data });
    }
    if (call.method === "POST" && call.path === "/v3/customers") {
      const customer = { object: "customer", id: `cus_${++state.seq}`, name: call.json?.name, externalReference: call.json?.externalReference };
      state.asaasCustomers.push(customer);
      return Response.json(customer);
    }
    if (call.method === "POST" && call.path === "/v3/payments") {
      const id = `pay_${++state.seq}`;
      return Response.json({ object: "payment", id, customer: call.json?.customer, value: call.json?.value, status: "PENDING", invoiceUrl: `https://www.asaas.com/i/${id}`, externalReference: call.json?.externalReference });
    }
    return Response.json({ errors: [{ code: "not_found", description: "Not found" }] }, { status: 404 });
  }

  function mercadopago(call: PaymentCall): Response {
    if (call.headers.get("authorization") !== `Bearer ${FAKE_CREDENTIALS.mpaccesstoken}`) return unauthorized();
    if (call.method === "POST" && call.path === "/checkout/preferences") {
      const id = `123456-pref-${++state.seq}`;
      return Response.json({ id, init_point: `https://www.mercadopago.com.br/checkout/v1/redirect?pref_id=${id}`, external_reference: call.json?.external_reference, items: call.json?.items });
    }
    const payment = call.path.match(/^\/v1\/payments\/(\w+)$/);
    if (call.method === "GET" && payment) {
      const found = state.mpPayments.get(payment[1]);
      return found ? Response.json(found) : Response.json({ message: "Payment not found", status: 404 }, { status: 404 });
    }
    return Response.json({ message: "not found" }, { status: 404 });
  }

  function efi(call: PaymentCall): Response {
    if (call.method === "POST" && call.path === "/oauth/token") {
      const basic = `Basic ${btoa(`${FAKE_CREDENTIALS.eficlientid}:${FAKE_CREDENTIALS.eficlientsecret}`)}`;
      if (call.headers.get("authorization") !== basic || call.json?.grant_type !== "client_credentials") return unauthorized();
      return Response.json({ access_token: "efi-access-token", token_type: "Bearer", expires_in: 3600, scope: "cob.write cob.read" });
    }
    if (call.headers.get("authorization") !== "Bearer efi-access-token") return unauthorized();
    const cob = call.path.match(/^\/v2\/cob\/([A-Za-z0-9]{26,35})$/);
    if (call.method === "PUT" && cob) {
      const location = `pix.example.efipay.com.br/qr/v2/${cob[1]}`;
      return Response.json({
        calendario: { criacao: new Date().toISOString(), expiracao: call.json?.calendario?.expiracao },
        txid: cob[1],
        revisao: 0,
        loc: { id: ++state.seq, location, tipoCob: "cob" },
        location,
        status: "ATIVA",
        valor: call.json?.valor,
        chave: call.json?.chave,
        pixCopiaECola: dynamicBrCode({ location, merchantName: "EFI FAKE", merchantCity: "OURO PRETO", amount: Number(call.json?.valor?.original) }),
      }, { status: 201 });
    }
    return Response.json({ nome: "not_found", mensagem: "Not found" }, { status: 404 });
  }

  const handlers = { stripe, asaas, mercadopago, efi };
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, async (request) => {
    const url = new URL(request.url);
    const [, prefix, ...rest] = url.pathname.split("/");
    if (!(prefix in handlers)) return new Response("no such provider", { status: 404 });
    const provider = prefix as keyof PaymentApiUrls;
    const raw = await request.text();
    let json: unknown = null;
    try {
      json = raw ? JSON.parse(raw) : null;
    } catch { /* a form body */ }
    const call: PaymentCall = { provider, method: request.method, path: "/" + rest.join("/"), headers: request.headers, raw, json, form: new URLSearchParams(raw), query: url.searchParams };
    calls.push(call);
    if (state.hang.has(provider)) await released.promise;
    if (state.down.has(provider)) return new Response("Service Unavailable", { status: 503 });
    return handlers[provider](call);
  });
  const base = `http://127.0.0.1:${server.addr.port}`;
  const urls: PaymentApiUrls = { stripe: `${base}/stripe`, asaas: `${base}/asaas`, mercadopago: `${base}/mercadopago`, efi: `${base}/efi` };
  return {
    urls,
    calls,
    state,
    /** The calls made to one provider. */
    callsOf: (provider: keyof PaymentApiUrls) => calls.filter((c) => c.provider === provider),
    async close() {
      released.resolve();
      await server.shutdown();
    },
  };
}

/** A webhook delivery: what a provider posts. */
export interface Delivery {
  provider: ProviderName;
  body: string;
  headers: Record<string, string>;
  query?: Record<string, string>;
}

/** Stripe's `checkout.session.completed` signed with `secret` (t defaults to now). */
export async function stripeDelivery(secret: string, o: { eventId: string; sessionId: string; reference: string; amountCents: number; paid?: boolean; t?: number }): Promise<Delivery> {
  const body = JSON.stringify({
    id: o.eventId,
    object: "event",
    type: "checkout.session.completed",
    data: { object: { id: o.sessionId, object: "checkout.session", amount_total: o.amountCents, currency: "brl", client_reference_id: o.reference, metadata: { reference: o.reference }, payment_status: o.paid === false ? "unpaid" : "paid" } },
  });
  const t = o.t ?? Math.floor(Date.now() / 1000);
  return { provider: "stripe", body, headers: { "stripe-signature": `t=${t},v1=${await hmacHex(secret, `${t}.${body}`)}` } };
}

/** Asaas's PAYMENT_RECEIVED with its access token header. */
export function asaasDelivery(token: string, o: { eventId: string; paymentId: string; reference: string; value: number; event?: string }): Delivery {
  const body = JSON.stringify({ id: o.eventId, event: o.event ?? "PAYMENT_RECEIVED", dateCreated: new Date().toISOString(), payment: { object: "payment", id: o.paymentId, value: o.value, netValue: o.value, status: "RECEIVED", billingType: "PIX", externalReference: o.reference } });
  return { provider: "asaas", body, headers: { "asaas-access-token": token } };
}

/** Mercado Pago's payment notification signed over its manifest. */
export async function mercadoPagoDelivery(secret: string, o: { paymentId: string; requestId?: string; ts?: number }): Promise<Delivery> {
  const requestId = o.requestId ?? crypto.randomUUID();
  const ts = String(o.ts ?? Date.now());
  const body = JSON.stringify({ id: 12345678901, live_mode: false, type: "payment", date_created: new Date().toISOString(), user_id: 44444, api_version: "v1", action: "payment.updated", data: { id: o.paymentId } });
  const v1 = await hmacHex(secret, mercadoPagoManifest(o.paymentId, requestId, ts));
  return { provider: "mercadopago", body, headers: { "x-signature": `ts=${ts},v1=${v1}`, "x-request-id": requestId }, query: { "data.id": o.paymentId, type: "payment" } };
}

/** Efí's Pix notification (the hmac query value the webhook URL was registered with). */
export function efiDelivery(hmac: string, pix: Array<{ txid: string; endToEndId: string; valor: string }>): Delivery {
  const body = JSON.stringify({ pix: pix.map((p) => ({ ...p, chave: FAKE_CREDENTIALS.efichavepix, horario: new Date().toISOString() })) });
  return { provider: "efi", body, headers: {}, query: { hmac, ignorar: "" } };
}

/** Posts `delivery` to our server's webhook route; Efí's goes to the "/pix" suffix it appends. */
export async function postDelivery(serverUrl: string, delivery: Delivery): Promise<{ status: number; body: unknown }> {
  const path = `/webhooks/payments/${delivery.provider}${delivery.provider === "efi" ? "/pix" : ""}`;
  const query = delivery.query ? `?${new URLSearchParams(delivery.query)}` : "";
  const response = await fetch(serverUrl + path + query, {
    method: "POST",
    headers: { "content-type": "application/json", ...delivery.headers },
    body: delivery.body,
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch { /* text */ }
  return { status: response.status, body };
}

/** How `selfSignedP12` seals the file: node-forge's choices (it writes no RC2; openssl -legacy does). */
export interface P12Options {
  /** Key bag cipher: "3des" (PKCS#12 PBE, legacy) or "aes256" (PBES2, modern). Default 3des. */
  algorithm?: "3des" | "aes256";
  /** Default "" (password-less, as Efí issues them); null seals with no password at all. */
  password?: string | null;
}

/**
 * A self-signed certificate and key packed as a .p12, made in-process with node-forge (CI has
 * no openssl binary). The key and certificate PEMs are returned to compare a conversion with.
 */
export function selfSignedP12(options: P12Options = {}): Promise<{ p12: Uint8Array<ArrayBuffer>; certPem: string; keyPem: string }> {
  const keys = forge.pki.rsa.generateKeyPair({ bits: 2048 });
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = "01";
  cert.validity.notBefore = new Date(Date.now() - 60_000);
  cert.validity.notAfter = new Date(Date.now() + 2 * 86_400_000);
  const name = [{ name: "commonName", value: "balcao-test" }];
  cert.setSubject(name);
  cert.setIssuer(name);
  cert.sign(keys.privateKey, forge.md.sha256.create());
  const asn1 = forge.pkcs12.toPkcs12Asn1(keys.privateKey, [cert], options.password === undefined ? "" : options.password, {
    algorithm: options.algorithm ?? "3des",
    friendlyName: "balcao-test",
  });
  const der = forge.asn1.toDer(asn1).getBytes();
  const p12 = new Uint8Array(der.length);
  for (let i = 0; i < der.length; i++) p12[i] = der.charCodeAt(i);
  const lf = (pem: string) => pem.replace(/\r\n/g, "\n");
  return Promise.resolve({
    p12,
    certPem: lf(forge.pki.certificateToPem(cert)),
    keyPem: lf(forge.pki.privateKeyInfoToPem(forge.pki.wrapRsaPrivateKey(forge.pki.privateKeyToAsn1(keys.privateKey)))),
  });
}

/** Stores the platform's payment settings as the super user does (PUT /settings/{key}). */
export async function configurePayments(server: TestServer, settings: Record<string, string>): Promise<void> {
  const owner = await server.login("super@balcao.local");
  for (const [key, value] of Object.entries(settings)) {
    const res = await owner.put(`/settings/${key}`, { value });
    if (res.status !== 200) throw new Error(`PUT /settings/${key}: ${res.status} ${JSON.stringify(res.body)}`);
  }
}

/**
 * Moves company `companyId`'s due date (white-box, as the gate tests do) and lets its invoices
 * actor issue the period's invoice; returns the company's open invoice.
 */
export async function openInvoice(server: TestServer, companyId: number, dueDate: number): Promise<Invoice> {
  const { system } = server.deps;
  await companies.in(system, PLATFORM).update(companyId, (old) => ({ ...old, dueDate }), () => new Error(`no company ${companyId}`));
  await syncInvoices(system, companyId);
  const open = (await listInvoices(system, companyId)).filter((i) => i.status === "open").sort((a, b) => b.dueDate - a.dueDate);
  if (open.length === 0) throw new Error(`company ${companyId} has no open invoice after sync`);
  return open[0];
}
