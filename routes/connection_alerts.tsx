/**
 * /connection-alerts: every company's dropped WhatsApp connections (issue #40), for the
 * platform owner. Not in spec 002's route table: the spec's product never told anyone that a
 * number had dropped. First data read on the server (GET /connection-alerts?all=true).
 */
import ConnectionAlertsPage, { type ConnectionAlertsPageProps } from "../islands/ConnectionAlertsPage.tsx";
import { Island, type PageProps } from "../server/pages/island.tsx";
import type { PageLoad } from "../server/pages/loader.ts";
import { AdminRoute } from "../server/pages/admin_route.tsx";

/** Every company's alerts, open ones first. */
export function load(l: PageLoad) {
  return l.api("/connection-alerts?all=true");
}

/** The dropped connections page. */
export default function ConnectionAlertsRoute({ ctx, data }: PageProps) {
  return (
    <AdminRoute ctx={ctx}>
      <Island<ConnectionAlertsPageProps> ctx={ctx} name="ConnectionAlertsPage" component={ConnectionAlertsPage} props={{ initial: data ?? null, viewer: ctx.viewer }} />
    </AdminRoute>
  );
}
