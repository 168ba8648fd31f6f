/** /queues: the queues screen of spec 001 §2.15, its queues read on the server. */
import QueuesPage, { type QueuesPageProps } from "../islands/QueuesPage.tsx";
import { Island, type PageProps } from "../server/pages/island.tsx";
import type { PageLoad } from "../server/pages/loader.ts";
import { AdminRoute } from "../server/pages/admin_route.tsx";

/** The page's own stylesheet (static/pages/queues.css). */
export const css = "queues";

/** Every queue of the company as GET /queue answers it (an array, prioridade order). */
export function load(l: PageLoad) {
  return l.api("/queue");
}

/** The queues page. */
export default function QueuesRoute({ ctx, data }: PageProps) {
  return (
    <AdminRoute ctx={ctx}>
      <Island<QueuesPageProps>
        ctx={ctx}
        name="QueuesPage"
        component={QueuesPage}
        props={{ initial: data ?? null, viewer: ctx.viewer }}
      />
    </AdminRoute>
  );
}
