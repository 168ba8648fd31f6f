/**
 * One small interface per payment provider (issue #21): the checkout asks every configured
 * provider for a charge, and the webhook route asks the named provider whether a delivery is
 * genuine and what it says. Adapters hold no state: settings, base URLs and our own public
 * address come in a ProviderContext built per request (server/billing/providers/mod.ts).
 */

/** The providers the webhook route knows (`POST /webhooks/payments/{provider}`). */
export const PROVIDER_NAMES = ["stripe", "asaas", "mercadopago", "efi", "simulator"] as const;
export type ProviderName = typeof PROVIDER_NAMES[number];

/** Base URLs of the providers' APIs (config; tests point them at local fakes). */
export interface PaymentApiUrls {
  stripe: string;
  asaas: string;
  mercadopago: string;
  efi: string;
}

/** What an adapter may read: never a request's body or token. */
export interface ProviderContext {
  /** The platform's settings as stored (credentials included). */
  settings: Readonly<Record<string, string>>;
  urls: PaymentApiUrls;
  /** The platform company's name (the receiver's name on a Pix code). */
  platformName: string;
  /**
   * Our public base URL (return pages, notification URLs), no trailing slash: the operator's
   * BALCAO_PUBLIC_URL, never a request's Host header; null when unset, and then an adapter
   * that needs it refuses to build a charge (publicBase).
   */
  origin: string | null;
  /** Efí's uploaded .p12 (server/media/branding_files.ts certificatePath), or null. */
  pixCertificate: string | null;
  /** The demo company, in a store the demo seeded: the only company the simulator serves. */
  demoCompanyId: number | null;
  /** Per-call limit for a provider's answer, in ms. */
  timeoutMs: number;
  /** HMAC key of the simulator's webhooks (derived from the server's secret). */
  simulatorKey: string;
}

/** Who pays (the checkout's address step; card fields never reach here). */
export interface Payer {
  name: string;
  email: string;
  address: string;
  city: string;
  state: string;
  zipcode: string;
  country: string;
}

/** What a charge is for. */
export interface ChargeInput {
  invoiceId: number;
  companyId: number;
  companyName: string;
  /** The invoice's detail (shown on the provider's page). */
  detail: string;
  /** BRL, 2 decimals. */
  amount: number;
  /** The invoice's due date, ms. */
  dueDate: number;
  payer: Payer;
  /** `${companyId}:${invoiceId}`, echoed back by providers that keep a reference. */
  reference: string;
}

/** A created charge: the provider's id (for chargeOf), a page to pay on, or a Pix payload. */
export interface Charge {
  chargeId: string;
  url?: string;
  pix?: { payload: string };
}

/** A webhook delivery as received: the raw body is read once, for the signature. */
export interface WebhookRequest {
  headers: Headers;
  rawBody: string;
  query: Readonly<Record<string, string>>;
}

/** What a genuine delivery says. `paid: false` for events that settle nothing (created, pending…). */
export interface WebhookEvent {
  /** The provider's event id: the idempotency key. */
  eventId: string;
  chargeId?: string;
  /** Our `${companyId}:${invoiceId}` when the provider echoes it. */
  reference?: string;
  paid: boolean;
  /** BRL, when the event states it. */
  amount?: number;
}

/** One payment provider behind the checkout and the webhook route. */
export interface PaymentProvider {
  name: ProviderName;
  /** "pix" answers the checkout's QR; "link" a page to pay by card. */
  kind: "pix" | "link";
  /** Whether this provider may charge company `companyId` (credentials set; the simulator: the demo's). */
  configured(ctx: ProviderContext, companyId: number): boolean;
  createCharge(ctx: ProviderContext, input: ChargeInput): Promise<Charge>;
  /**
   * The events of a genuine delivery (Efí batches several Pix in one), null when it is refused
   * (bad or missing signature, or no secret configured to check it with).
   */
  verifyWebhook(ctx: ProviderContext, req: WebhookRequest): Promise<WebhookEvent[] | null>;
}

/** A provider answered something other than what its docs promise. */
export class ProviderError extends Error {
  override name = "ProviderError";
  constructor(readonly provider: ProviderName, message: string) {
    super(`${provider}: ${message}`);
  }
}

/** The public base URL for a provider's return and notification URLs; throws without one. */
export function publicBase(ctx: ProviderContext, provider: ProviderName): string {
  if (ctx.origin === null) {
    throw new ProviderError(provider, "no public URL is configured (BALCAO_PUBLIC_URL) for its return and notification URLs");
  }
  return ctx.origin;
}

/** The reference a charge carries: `${companyId}:${invoiceId}`. */
export function chargeReference(companyId: number, invoiceId: number): string {
  return `${companyId}:${invoiceId}`;
}

/** The ids in a reference, or null when it is not one of ours. */
export function parseReference(reference: string | undefined | null): { companyId: number; invoiceId: number } | null {
  const match = reference?.match(/^(\d{1,12}):(\d{1,12})$/);
  return match ? { companyId: Number(match[1]), invoiceId: Number(match[2]) } : null;
}
