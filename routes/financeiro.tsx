/**
 * /financeiro: the invoices screen of spec 001 §2.20, its first page of invoices and of
 * payments read on the server (and, for admins, the company's billing address the checkout
 * starts from). An expired company has no page viewer (server/pages/viewer.ts): its island
 * reads everything with the tab's billing-only token instead.
 */
import FinanceiroPage, { type FinanceiroData, type FinanceiroPageProps } from "../islands/FinanceiroPage.tsx";
import type { InvoicesResponse } from "../islands/billing/invoice_rows.ts";
import type { PaymentsResponse } from "../islands/billing/PaidInvoices.tsx";
import type { CompanyAddress } from "../islands/billing/AddressFields.tsx";
import { mayViewSubscription } from "../islands/subscription/summary.ts";
import { can } from "../domain/permissions.ts";
import { Island, type PageProps } from "../server/pages/island.tsx";
import type { PageLoad } from "../server/pages/loader.ts";
import { AdminRoute } from "../server/pages/admin_route.tsx";

/** The checkout's steps (public.css) and the page's own rules (static/pages/billing.css). */
export const css = ["public", "billing"];

/** GET /invoices/all page 1, GET /payments page 1, and the own company for admins. */
export async function load(l: PageLoad): Promise<FinanceiroData | null> {
  if (!can(l.viewer, "financeiro:view")) return null;
  const [invoices, payments, company] = await Promise.all([
    l.api<InvoicesResponse>("/invoices/all?pageNumber=1"),
    l.api<PaymentsResponse>("/payments?pageNumber=1"),
    mayViewSubscription(l.viewer) ? l.api<CompanyAddress>(`/companies/${l.viewer.companyId}`) : Promise.resolve(null),
  ]);
  return { invoices, payments, company };
}

/** The invoices page. */
export default function FinanceiroRoute({ ctx, data }: PageProps) {
  return (
    <AdminRoute ctx={ctx}>
      <Island<FinanceiroPageProps>
        ctx={ctx}
        name="FinanceiroPage"
        component={FinanceiroPage}
        props={{ initial: (data as FinanceiroData | null) ?? null, viewer: ctx.viewer }}
      />
    </AdminRoute>
  );
}
