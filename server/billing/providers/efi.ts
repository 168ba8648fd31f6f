/**
 * Pix through Efí (formerly Gerencianet), or a static BR Code when Efí's API is not set up.
 *
 * With `eficlientid`, `eficlientsecret`, `efichavepix` and the uploaded .p12: an OAuth token
 * (`POST /oauth/token`, Basic client id:secret, `grant_type=client_credentials`) and an
 * immediate charge (`PUT /v2/cob/{txid}`, txid 26–35 letters/digits, `valor.original` in reais
 * as "149.90"), both over mutual TLS with the certificate; its `pixCopiaECola` is the code (or,
 * if absent, a dynamic BR Code built from `loc.location`).
 * With only `efichavepix`: a static BR Code for the key, txid of our own (≤25), the same one
 * Efí reports when that key's account receives it.
 *
 * Efí posts paid Pix to the registered webhook URL (plus "/pix") as `{ pix: [{ endToEndId,
 * txid, valor, horario }] }`. Efí authenticates itself with mTLS at the TLS terminator, which
 * this server does not see, so the URL is registered with `?hmac=<efiwebhooksecret>` as Efí's
 * docs suggest for that case, and a delivery without it is refused. The event id is the Pix's
 * endToEndId, unique per payment.
 */
import { dynamicBrCode, staticBrCode } from "../../../domain/brcode.ts";
import { callProvider, jsonBody, pick, pickString, sameSecret } from "./http.ts";
import { p12ToPem } from "./p12.ts";
import { type ChargeInput, type PaymentProvider, type ProviderContext, ProviderError, type WebhookEvent } from "./types.ts";

/** A txid of `length` letters/digits that starts with our ids (readable in Efí's panel). */
export function efiTxid(input: Pick<ChargeInput, "companyId" | "invoiceId">, length: number): string {
  const head = `blc${input.companyId}x${input.invoiceId}x`;
  const random = crypto.randomUUID().replace(/-/g, "");
  return (head + random).slice(0, length);
}

/** Whether Efí's API (not only the key) is set up. */
function apiConfigured(ctx: ProviderContext): boolean {
  const s = ctx.settings;
  return Boolean(s.eficlientid?.trim() && s.eficlientsecret?.trim() && s.efichavepix?.trim() && ctx.pixCertificate);
}

/**
 * Receiver name and city on the code: the platform company's name; no setting holds the
 * receiver's city, so the manual's own example city stands in (payers' apps show the name
 * the key is registered to, from DICT, not this one).
 */
function merchant(ctx: ProviderContext, input: ChargeInput) {
  return { merchantName: ctx.platformName, merchantCity: "BRASILIA", description: input.detail.slice(0, 40) };
}

async function apiCharge(ctx: ProviderContext, input: ChargeInput) {
  const pem = await p12ToPem(ctx.pixCertificate!);
  const client = Deno.createHttpClient({ cert: pem.cert, key: pem.key });
  try {
    const basic = btoa(`${ctx.settings.eficlientid.trim()}:${ctx.settings.eficlientsecret.trim()}`);
    const token = await callProvider("efi", `${ctx.urls.efi}/oauth/token`, {
      method: "POST",
      headers: { authorization: `Basic ${basic}`, "content-type": "application/json" },
      body: JSON.stringify({ grant_type: "client_credentials" }),
      timeoutMs: ctx.timeoutMs,
      client,
    });
    const accessToken = pickString(token, "access_token");
    if (!accessToken) throw new ProviderError("efi", "the OAuth answer has no access_token");
    const txid = efiTxid(input, 32);
    const cob = await callProvider("efi", `${ctx.urls.efi}/v2/cob/${txid}`, {
      method: "PUT",
      headers: { authorization: `Bearer ${accessToken}`, "content-type": "application/json" },
      body: JSON.stringify({
        calendario: { expiracao: 3600 },
        valor: { original: input.amount.toFixed(2) },
        chave: ctx.settings.efichavepix.trim(),
        solicitacaoPagador: input.detail.slice(0, 140),
      }),
      timeoutMs: ctx.timeoutMs,
      client,
    });
    const location = pickString(cob, "loc", "location") ?? pickString(cob, "location");
    const payload = pickString(cob, "pixCopiaECola") ??
      (location ? dynamicBrCode({ location, amount: input.amount, ...merchant(ctx, input) }) : undefined);
    if (!payload) throw new ProviderError("efi", "the charge has neither pixCopiaECola nor a location");
    return { chargeId: pickString(cob, "txid") ?? txid, pix: { payload } };
  } finally {
    client.close();
  }
}

export const efi: PaymentProvider = {
  name: "efi",
  kind: "pix",
  configured: (ctx) => (ctx.settings.efichavepix ?? "").trim() !== "",

  createCharge(ctx, input) {
    if (apiConfigured(ctx)) return apiCharge(ctx, input);
    const txid = efiTxid(input, 25);
    const payload = staticBrCode({ key: ctx.settings.efichavepix.trim(), amount: input.amount, txid, ...merchant(ctx, input) });
    return Promise.resolve({ chargeId: txid, pix: { payload } });
  },

  verifyWebhook(ctx, req) {
    const secret = (ctx.settings.efiwebhooksecret ?? "").trim();
    if (!secret || !sameSecret(req.query.hmac ?? "", secret)) return Promise.resolve(null);
    const list = pick(jsonBody(req.rawBody), "pix");
    // Efí checks a new webhook URL with a delivery without Pix: genuine, nothing to settle.
    if (!Array.isArray(list)) return Promise.resolve([]);
    const events: WebhookEvent[] = [];
    for (const pix of list) {
      const eventId = pickString(pix, "endToEndId");
      const valor = pickString(pix, "valor");
      if (!eventId) continue;
      events.push({ eventId, chargeId: pickString(pix, "txid"), paid: true, amount: valor ? Number(valor) : undefined });
    }
    return Promise.resolve(events);
  },
};
