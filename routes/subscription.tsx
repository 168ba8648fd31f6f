/** /subscription: the company's subscription (spec 002 §2.9), its company read on the server. */
import SubscriptionPage, { type SubscriptionPageProps } from "../islands/SubscriptionPage.tsx";
import { mayViewSubscription } from "../islands/subscription/summary.ts";
import type { InvoicesResponse } from "../islands/billing/invoice_rows.ts";
import { Island, type PageProps } from "../server/pages/island.tsx";
import type { PageLoad } from "../server/pages/loader.ts";
import { AdminRoute } from "../server/pages/admin_route.tsx";

/** The public flows' stylesheet (static/pages/public.css) styles this page; billing.css its checkout dialog. */
export const css = ["public", "billing"];

/** What the route reads: the company and the first page of its invoices (the checkout pays the newest unpaid). */
interface SubscriptionData {
  company: unknown;
  invoices: InvoicesResponse | null;
}

/** The viewer's company as GET /companies/{id} answers it (admins and super users only), and its invoices. */
export async function load(l: PageLoad): Promise<SubscriptionData | null> {
  if (!mayViewSubscription(l.viewer)) return null;
  const [company, invoices] = await Promise.all([
    l.api(`/companies/${l.viewer.companyId}`),
    l.api<InvoicesResponse>("/invoices/all?pageNumber=1"),
  ]);
  return { company, invoices };
}

/** The subscription page. */
export default function SubscriptionRoute({ ctx, data }: PageProps) {
  const read = data as SubscriptionData | null;
  const initial = (read?.company ?? null) as SubscriptionPageProps["initial"];
  return (
    <AdminRoute ctx={ctx}>
      <Island<SubscriptionPageProps>
        ctx={ctx}
        name="SubscriptionPage"
        component={SubscriptionPage}
        props={{ initial, invoices: read?.invoices ?? null, viewer: ctx.viewer }}
      />
    </AdminRoute>
  );
}
