/**
 * The payment providers (issue #21) and the context they run with. The checkout
 * (server/api/subscription.ts) asks every configured one for a charge; the webhook route
 * (server/api/payment_webhooks.ts) asks the named one to verify a delivery.
 */
import { getCompany, platformCompanyId, platformSettings } from "../../../actors/platform/lookup.ts";
import type { AppDeps } from "../../deps.ts";
import { hmacHex } from "./http.ts";
import { certificatePath } from "../../media/branding_files.ts";
import { asaas } from "./asaas.ts";
import { efi } from "./efi.ts";
import { mercadopago } from "./mercadopago.ts";
import { simulator } from "./simulator.ts";
import { stripe } from "./stripe.ts";
import type { PaymentApiUrls, PaymentProvider, ProviderContext, ProviderName } from "./types.ts";

/** The real hosts; BALCAO_*_API_URL (server/config.ts) replaces any of them. */
export const DEFAULT_PAYMENT_API_URLS: PaymentApiUrls = {
  stripe: "https://api.stripe.com",
  asaas: "https://api.asaas.com",
  mercadopago: "https://api.mercadopago.com",
  efi: "https://pix.api.efipay.com.br",
};

/** A provider's answer is awaited this long by default (config paymentTimeoutMs replaces it). */
export const PAYMENT_TIMEOUT_MS = 10_000;

/** Every provider, by name. */
export const PROVIDERS: Readonly<Record<ProviderName, PaymentProvider>> = { stripe, asaas, mercadopago, efi, simulator };

/**
 * KV key written by the demo seed: the demo company's id. The simulator is offered to that
 * company only, and only in a store the seed wrote (a value of `true`, written before #38
 * without the id, offers it to nobody).
 */
const DEMO_MARK = ["billing_demo"];

/** Marks this store as the demo's and `companyId` as its demo company (server/seed/demo.ts). */
export async function markPaymentDemo(kv: Deno.Kv, companyId: number): Promise<void> {
  await kv.set(DEMO_MARK, companyId);
}

/** The context every adapter call of one request gets. */
export async function providerContext(deps: AppDeps): Promise<ProviderContext> {
  const configured = deps.config.paymentApiUrls ?? {};
  const urls = Object.fromEntries(
    Object.entries(DEFAULT_PAYMENT_API_URLS).map(([name, url]) => [name, (configured[name as keyof PaymentApiUrls] || url).replace(/\/+$/, "")]),
  ) as unknown as PaymentApiUrls;
  const platformId = await platformCompanyId(deps.system);
  const [settings, pixCertificate, demo, platform, simulatorKey] = await Promise.all([
    platformSettings(deps.system),
    certificatePath(deps.config.dataDir),
    deps.kv.get<unknown>(DEMO_MARK),
    platformId === undefined ? undefined : getCompany(deps.system, platformId),
    hmacHex(deps.secret, "payment-simulator"),
  ]);
  return {
    settings,
    urls,
    platformName: platform?.name ?? "Balcao",
    origin: deps.config.publicUrl ?? null,
    pixCertificate,
    demoCompanyId: typeof demo.value === "number" ? demo.value : null,
    timeoutMs: deps.config.paymentTimeoutMs ?? PAYMENT_TIMEOUT_MS,
    simulatorKey,
  };
}
