/** /simulator: the customers' phone (issue #37), the company's simulated connections read on the server. */
import SimulatorPage, { type SimulatorPageProps } from "../islands/SimulatorPage.tsx";
import { Island, type PageProps } from "../server/pages/island.tsx";
import type { PageLoad } from "../server/pages/loader.ts";
import { AdminRoute } from "../server/pages/admin_route.tsx";

/** The page's own stylesheet (static/pages/simulator.css). */
export const css = "simulator";

/** The phones as GET /simulator answers them, and the connection the address names (`?c=`). */
export async function load(l: PageLoad) {
  const connection = Number(l.query.get("c"));
  return { phones: await l.api("/simulator"), connectionId: Number.isInteger(connection) && connection > 0 ? connection : null };
}

/** The simulator page. */
export default function SimulatorRoute({ ctx, data }: PageProps) {
  const loaded = data as { phones: SimulatorPageProps["initial"]; connectionId: number | null } | null;
  return (
    <AdminRoute ctx={ctx}>
      <Island<SimulatorPageProps>
        ctx={ctx}
        name="SimulatorPage"
        component={SimulatorPage}
        props={{ initial: loaded?.phones ?? null, viewer: ctx.viewer, connectionId: loaded?.connectionId ?? null }}
      />
    </AdminRoute>
  );
}
