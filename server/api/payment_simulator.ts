/**
 * The demo's payment page (issue #21): GET /simulator/payments/{chargeId} shows what the
 * simulator charge pays and a button; POST …/pay posts the simulator provider's signed
 * webhook through the same path as every provider's (server/billing/receive.ts), so the
 * licence renews and the checkout sees the live CONCLUIDA event. Only for the demo company's
 * charges in a store the demo seeded (404 for any other); public like a provider's hosted page, since the tab it opens in
 * carries no token: knowing the charge id is what lets one pay it, and paying is all it does.
 */
import { type Context, Hono } from "hono";
import { notFound } from "../../domain/errors.ts";
import type { AppEnv } from "../deps.ts";
import { chargeOf, invoiceOf } from "../billing/invoices.ts";
import { receivePayment } from "../billing/receive.ts";
import { PROVIDERS, providerContext } from "../billing/providers/mod.ts";
import { SIMULATOR_SIGNATURE_HEADER, simulatorDelivery } from "../billing/providers/simulator.ts";
import { escapeHtml } from "../pages/document.ts";

const brl = new Intl.NumberFormat("pt-BR", { style: "currency", currency: "BRL" });

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="pt-BR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)} — Balcão</title><link rel="stylesheet" href="/static/payment_simulator.css"></head><body>
<header>${escapeHtml(title)}</header><main><section>${body}</section></main></body></html>`;
}

/** The charge's invoice and the context, or the 404 outside the demo / for an unknown charge. */
async function chargeAndInvoice(c: Context<AppEnv>) {
  const deps = c.get("deps");
  const chargeId = c.req.param("chargeId") ?? "";
  const ctx = await providerContext(deps);
  const found = ctx.demoCompanyId === null ? null : await chargeOf(deps, "simulator", chargeId);
  // Only the demo company's invoices: a charge of any other company (one made before #38)
  // does not exist here, so paying with no money renews no one else's licence.
  const target = found?.companyId === ctx.demoCompanyId ? found : null;
  if (!target) throw notFound("ERR_NO_INVOICE_FOUND", `No simulated charge ${chargeId}`);
  return { deps, ctx, chargeId, invoice: await invoiceOf(deps, target.companyId, target.invoiceId) };
}

export function paymentSimulatorRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get("/:chargeId", async (c) => {
    const { chargeId, invoice } = await chargeAndInvoice(c);
    const paid = invoice.status === "paid";
    return c.html(page("Pagamento simulado", `
<p>Esta página simula um provedor de pagamento da demonstração: nenhum dinheiro é cobrado.</p>
<p><strong>${escapeHtml(invoice.detail)}</strong></p>
<p data-testid="sim-amount">${escapeHtml(brl.format(invoice.value))}</p>
${paid ? `<p data-testid="sim-paid">Fatura paga.</p>` : `<form method="post" action="/simulator/payments/${encodeURIComponent(chargeId)}/pay">
<button type="submit" data-testid="sim-pay">Pagar ${escapeHtml(brl.format(invoice.value))}</button></form>`}`));
  });

  app.post("/:chargeId/pay", async (c) => {
    const { deps, ctx, chargeId, invoice } = await chargeAndInvoice(c);
    const delivery = await simulatorDelivery(ctx.simulatorKey, { chargeId, amount: invoice.value });
    const received = await receivePayment(deps, ctx, PROVIDERS.simulator, {
      headers: new Headers({ [SIMULATOR_SIGNATURE_HEADER]: delivery.signature }),
      rawBody: delivery.body,
      query: {},
    });
    const text = received.settled > 0 ? "Pagamento aprovado. Pode fechar esta aba." : "Nada a pagar: esta fatura já estava paga.";
    return c.html(page("Pagamento simulado", `<p data-testid="sim-result">${text}</p>`));
  });
  return app;
}
