/** /webhooks: the outbound webhook subscriptions (issue #22; not in the spec's route table, see route_table.ts), read on the server. */
import WebhooksPage, { type WebhooksPageProps } from "../islands/WebhooksPage.tsx";
import { Island, type PageProps } from "../server/pages/island.tsx";
import type { PageLoad } from "../server/pages/loader.ts";
import { AdminRoute } from "../server/pages/admin_route.tsx";

export const css = "webhooks";

/** The subscriptions as GET /webhooks/subscriptions answers them. */
export function load(l: PageLoad) {
  return l.api("/webhooks/subscriptions");
}

/** The webhooks page. */
export default function WebhooksRoute({ ctx, data }: PageProps) {
  return (
    <AdminRoute ctx={ctx}>
      <Island<WebhooksPageProps> ctx={ctx} name="WebhooksPage" component={WebhooksPage} props={{ initial: data ?? null, viewer: ctx.viewer }} />
    </AdminRoute>
  );
}
