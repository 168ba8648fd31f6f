/**
 * POST /subscription (spec 001 §3 Subscription payload, §2.21; issue #21): the checkout's
 * "PAGAR". The invoice named by `invoiceId` (the caller's company's; an expired company's
 * billing-only token may call) is charged through every configured provider at once, each
 * within its timeout: a provider that fails or is slow answers null for its part, and the
 * others still answer. The amount is the invoice's value, never the body's price. Each charge
 * id is remembered (rememberCharge) so a webhook carrying only that id finds the invoice.
 *
 * Answer: `{ pix: { qrcode: { qrcode: <BR Code>, imagemQrcode: <PNG data URL> } } | null,
 * stripeURL, asaasURL, mercadopagoURL, simulatorURL (the demo company's, else null), valorext,
 * invoiceId }`. Links and notification URLs are built on BALCAO_PUBLIC_URL only, never on the
 * request's Host header: without it Stripe and Mercado Pago answer null (the reason is logged). Card fields of the body are dropped by the schema (domain/checkout.ts) and
 * never logged or stored.
 */
import { Hono } from "hono";
import { SubscriptionPayload } from "../../domain/checkout.ts";
import { AppError } from "../../domain/errors.ts";
import { getCompany } from "../../actors/platform/lookup.ts";
import type { AppDeps, AppEnv } from "../deps.ts";
import { requireAuth, requirePermission } from "../auth/middleware.ts";
import { parseBody } from "../http/validate.ts";
import { invoiceOf, rememberCharge } from "../billing/invoices.ts";
import { PROVIDERS, providerContext } from "../billing/providers/mod.ts";
import { type Charge, chargeReference, type ChargeInput, type PaymentProvider, type ProviderContext } from "../billing/providers/types.ts";
import { log } from "../../actors/_runtime/log.ts";

/** The answer's key of each link provider. */
const URL_KEYS = { stripe: "stripeURL", asaas: "asaasURL", mercadopago: "mercadopagoURL", simulator: "simulatorURL" } as const;

/** One provider's charge, or null when it failed or took longer than the context allows. */
async function chargeWith(deps: AppDeps, ctx: ProviderContext, provider: PaymentProvider, input: ChargeInput): Promise<Charge | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer in ${ctx.timeoutMs * 2} ms`)), ctx.timeoutMs * 2);
  });
  try {
    const charge = await Promise.race([provider.createCharge(ctx, input), late]);
    await rememberCharge(deps, { invoiceId: input.invoiceId, companyId: input.companyId, provider: provider.name, chargeId: charge.chargeId });
    return charge;
  } catch (error) {
    // The message names the provider and status, never the payer's data (providers/http.ts).
    log.warn(`Checkout of invoice ${input.invoiceId}: ${provider.name} failed: ${(error as Error).message}`);
    return null;
  } finally {
    clearTimeout(timer);
  }
}

export function subscriptionRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.post("/", requireAuth({ billing: true }), requirePermission("financeiro:view"), async (c) => {
    const deps = c.get("deps");
    const who = c.get("principal");
    const body = await parseBody(c, SubscriptionPayload);
    const invoice = await invoiceOf(deps, who.companyId, body.invoiceId);
    if (invoice.status === "paid") {
      throw new AppError("ERR_CONFLICT", { status: 409, message: `Invoice ${invoice.id} is already paid` });
    }
    const company = await getCompany(deps.system, invoice.companyId);
    const ctx = await providerContext(deps);
    const input: ChargeInput = {
      invoiceId: invoice.id,
      companyId: invoice.companyId,
      companyName: company?.name ?? "",
      detail: invoice.detail,
      amount: invoice.value,
      dueDate: invoice.dueDate,
      payer: {
        name: [body.firstName, body.lastName].filter(Boolean).join(" "),
        email: company?.email ?? "",
        address: body.address2,
        city: body.city,
        state: body.state ?? "",
        zipcode: body.zipcode,
        country: body.country,
      },
      reference: chargeReference(invoice.companyId, invoice.id),
    };
    const offered = Object.values(PROVIDERS).filter((p) => p.configured(ctx, invoice.companyId));
    const charges = await Promise.all(offered.map((p) => chargeWith(deps, ctx, p, input)));
    const answer = {
      pix: null as { qrcode: { qrcode: string; imagemQrcode: string } } | null,
      stripeURL: null as string | null,
      asaasURL: null as string | null,
      mercadopagoURL: null as string | null,
      simulatorURL: null as string | null,
      valorext: invoice.value,
      invoiceId: invoice.id,
    };
    for (const [i, provider] of offered.entries()) {
      const charge = charges[i];
      if (!charge) continue;
      if (provider.kind === "pix" && charge.pix) {
        // Imported when a Pix charge is shown, not at every start.
        const { default: QRCode } = await import("qrcode");
        const imagemQrcode = await QRCode.toDataURL(charge.pix.payload, { type: "image/png", width: 256, margin: 1 });
        answer.pix = { qrcode: { qrcode: charge.pix.payload, imagemQrcode } };
      } else if (provider.name in URL_KEYS && charge.url) {
        answer[URL_KEYS[provider.name as keyof typeof URL_KEYS]] = charge.url;
      }
    }
    return c.json(answer);
  });
  return app;
}
