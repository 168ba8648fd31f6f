/** /subscription: the company's subscription (spec 002 §2.9), its company read on the server. */
import SubscriptionPage, { type SubscriptionPageProps } from "../islands/SubscriptionPage.tsx";
import { mayViewSubscription } from "../islands/subscription/summary.ts";
import { Island, type PageProps } from "../server/pages/island.tsx";
import type { PageLoad } from "../server/pages/loader.ts";
import { AdminRoute } from "../server/pages/admin_route.tsx";

/** The public flows' stylesheet (static/pages/public.css) also styles this page. */
export const css = "public";

/** The viewer's company as GET /companies/{id} answers it (admins and super users only). */
export function load(l: PageLoad) {
  return mayViewSubscription(l.viewer) ? l.api(`/companies/${l.viewer.companyId}`) : Promise.resolve(null);
}

/** The subscription page. */
export default function SubscriptionRoute({ ctx, data }: PageProps) {
  return (
    <AdminRoute ctx={ctx}>
      <Island<SubscriptionPageProps> ctx={ctx} name="SubscriptionPage" component={SubscriptionPage} props={{ initial: data ?? null, viewer: ctx.viewer }} />
    </AdminRoute>
  );
}
