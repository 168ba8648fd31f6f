/**
 * /kanban: the kanban board of spec 002 §2.10 (plan flag useKanban, gated by
 * islands/shell/menu.ts routeGate), its lanes and cards read on the server.
 */
import KanbanPage, { type KanbanPageProps } from "../islands/KanbanPage.tsx";
import { kanbanQuery, NO_KANBAN_FILTERS } from "../islands/kanban/query.ts";
import type { KanbanData } from "../islands/kanban/use_board.ts";
import { manager } from "../islands/lib/session.ts";
import { Island, type PageProps } from "../server/pages/island.tsx";
import type { PageLoad } from "../server/pages/loader.ts";
import { AdminRoute } from "../server/pages/admin_route.tsx";

/** The page's own stylesheet (static/pages/kanban.css). */
export const css = "kanban";

/** The lanes and the unfiltered cards, as the island would fetch them; null when either fails. */
export async function load(l: PageLoad): Promise<KanbanData | null> {
  const [lanes, cards] = await Promise.all([
    l.api<{ lista: KanbanData["lanes"] }>("/tags/kanban"),
    l.api<{ tickets: KanbanData["tickets"] }>(`/tickets/kanban${kanbanQuery(NO_KANBAN_FILTERS, manager(l.viewer))}`),
  ]);
  return lanes && cards ? { lanes: lanes.lista, tickets: cards.tickets } : null;
}

/** The kanban page. */
export default function KanbanRoute({ ctx, data }: PageProps) {
  return (
    <AdminRoute ctx={ctx}>
      <Island<KanbanPageProps>
        ctx={ctx}
        name="KanbanPage"
        component={KanbanPage}
        props={{ initial: (data as KanbanData | null | undefined) ?? null, viewer: ctx.viewer }}
      />
    </AdminRoute>
  );
}
