/**
 * POST /webhooks/payments/{provider} (issue #21; provider stripe | asaas | mercadopago | efi |
 * simulator): public, no token: each provider's own proof is checked instead
 * (server/billing/providers/*), on the raw body read once. Efí appends "/pix" to the
 * registered URL, so /webhooks/payments/efi/pix is the same route. 200 `{ received, settled }`
 * for a verified delivery (also a replay, which changes nothing), 401 for a forged one, 404 for
 * an unknown provider.
 */
import { type Context, Hono } from "hono";
import { notFound } from "../../domain/errors.ts";
import type { AppEnv } from "../deps.ts";
import { receivePayment } from "../billing/receive.ts";
import { PROVIDERS, providerContext } from "../billing/providers/mod.ts";
import { PROVIDER_NAMES, type ProviderName } from "../billing/providers/types.ts";

async function handle(c: Context<AppEnv>, name: string) {
  const deps = c.get("deps");
  if (!(PROVIDER_NAMES as readonly string[]).includes(name)) throw notFound("ERR_NOT_FOUND", `No payment provider ${name}`);
  const rawBody = await c.req.text();
  const ctx = await providerContext(deps);
  const received = await receivePayment(deps, ctx, PROVIDERS[name as ProviderName], {
    headers: c.req.raw.headers,
    rawBody,
    query: c.req.query(),
  });
  return c.json({ received: received.events, settled: received.settled });
}

export function paymentWebhookRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.post("/efi/pix", (c) => handle(c, "efi"));
  app.post("/:provider", (c) => handle(c, c.req.param("provider")));
  return app;
}
