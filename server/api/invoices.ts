/**
 * Invoices and payment history (spec 001 §2.20, §7; issue #21). Admins and supervisors
 * (`financeiro:view`) read their company's; the super user reads every company's (rows then
 * name the company) and marks one paid by hand with a reason. The reads stay open to an expired
 * company's billing-only token: /financeiro is where it lands to pay (spec 000 §4).
 */
import { type Context, Hono } from "hono";
import { companies, PLATFORM } from "../../actors/platform/collections.ts";
import { getInvoice, invoiceMissing, listInvoices, listPayments } from "../../actors/invoices/mod.ts";
import { AppError } from "../../domain/errors.ts";
import {
  type Invoice,
  invoiceJson,
  InvoiceQuery,
  INVOICE_PAGE_SIZE,
  ManualPayInput,
  newestDueFirst,
  paymentRow,
} from "../../domain/invoice.ts";
import { matchesSearch, paginate } from "../../domain/paging.ts";
import type { AppEnv } from "../deps.ts";
import { requireAuth, requirePermission, requireSuper } from "../auth/middleware.ts";
import { idParam, parseBody, parseQuery } from "../http/validate.ts";
import { invoiceOf, settleInvoice } from "../billing/invoices.ts";

export function invoiceRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const billing = [requireAuth({ billing: true }), requirePermission("financeiro:view")] as const;
  const idOf = (c: Context) => idParam(c, "id", () => invoiceMissing(c.req.param("id") ?? ""));
  /** The company whose invoices the caller reads: its own, or null (every one) for the super user. */
  const scopeOf = (c: Context<AppEnv>) => c.get("principal").super ? null : c.get("principal").companyId;

  app.get("/invoices/all", ...billing, async (c) => {
    const { system } = c.get("deps");
    const query = parseQuery(c, InvoiceQuery);
    const scope = scopeOf(c);
    const names = new Map<number, string>();
    let rows: Invoice[];
    if (scope === null) {
      const all = (await companies.in(system, PLATFORM).list())
        .filter((co) => query.companyId === undefined || co.id === query.companyId);
      for (const co of all) names.set(co.id, co.name);
      rows = (await Promise.all(all.map((co) => listInvoices(system, co.id)))).flat();
    } else {
      rows = await listInvoices(system, scope);
    }
    const found = rows
      .filter((inv) => matchesSearch(query.searchParam, inv.detail, inv.period, String(inv.id), names.get(inv.companyId)))
      .sort(newestDueFirst);
    const page = paginate(found, query.pageNumber, INVOICE_PAGE_SIZE);
    const invoices = page.rows.map((inv) =>
      scope === null ? { ...invoiceJson(inv), companyName: names.get(inv.companyId) ?? "" } : invoiceJson(inv)
    );
    return c.json({ invoices, count: page.count, hasMore: page.hasMore });
  });

  app.get("/invoices/:id", ...billing, async (c) => {
    return c.json(invoiceJson(await invoiceOf(c.get("deps"), scopeOf(c), idOf(c))));
  });

  app.post("/invoices/:id/pay", requireAuth(), requireSuper(), async (c) => {
    const deps = c.get("deps");
    const invoice = await invoiceOf(deps, null, idOf(c));
    const { reason } = await parseBody(c, ManualPayInput);
    if (invoice.status === "paid") {
      throw new AppError("ERR_CONFLICT", { status: 409, message: `Invoice ${invoice.id} is already paid` });
    }
    const { settled } = await settleInvoice(
      deps,
      {
        invoiceId: invoice.id,
        companyId: invoice.companyId,
        provider: "manual",
        // One manual payment per invoice: a second click is the same event.
        eventId: `invoice-${invoice.id}`,
        value: invoice.value,
      },
      { who: c.get("principal"), reason },
    );
    const paid = await getInvoice(deps.system, invoice.companyId, invoice.id);
    if (!settled && paid?.status !== "paid") {
      throw new AppError("ERR_CONFLICT", { status: 409, message: `Invoice ${invoice.id} could not be marked paid` });
    }
    return c.json(invoiceJson(paid ?? invoice));
  });

  app.get("/payments", ...billing, async (c) => {
    const { system } = c.get("deps");
    const companyId = c.get("principal").companyId;
    const [payments, invoices] = await Promise.all([listPayments(system, companyId), listInvoices(system, companyId)]);
    const byId = new Map(invoices.map((inv) => [inv.id, inv]));
    return c.json(payments.map((p) => paymentRow(p, byId.get(p.invoiceId))));
  });

  return app;
}
