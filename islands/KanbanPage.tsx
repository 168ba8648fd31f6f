/**
 * The kanban page (spec 002 §2.10, /kanban; plan flag useKanban, gated by
 * islands/shell/menu.ts routeGate): a first lane of tickets without a kanban tag, then one
 * lane per kanban tag by `order`, each with its lead value; search (500 ms debounce), user
 * filter for managers, date from and until; cards move by drag and drop, menu or arrow keys,
 * and move live on every open board. The first board is rendered on the server.
 */
import { lazy, Suspense, useState } from "react";
import { t } from "./lib/i18n.ts";
import { allowed } from "./lib/session.ts";
import { AdminPage, type AdminPageProps, useViewer } from "./ui/AdminPage.tsx";
import { EmptyState, ErrorState, Skeleton } from "./ui/States.tsx";
import { KanbanBoard } from "./kanban/KanbanBoard.tsx";
import { KanbanFiltersBar } from "./kanban/KanbanFiltersBar.tsx";
import { type KanbanData, useBoard } from "./kanban/use_board.ts";
import type { TicketItem } from "./tickets/types.ts";

// The conversation viewer loads only when a manager spies on a card.
const TicketMessagesDialog = lazy(() =>
  import("./tickets/TicketMessagesDialog.tsx").then((m) => ({ default: m.TicketMessagesDialog }))
);

/** Props of the KanbanPage island. */
export type KanbanPageProps = AdminPageProps<KanbanData>;

/** The kanban page. */
export default function KanbanPage({ initial, viewer: serverViewer }: KanbanPageProps) {
  const viewer = useViewer(serverViewer);
  const board = useBoard(initial, viewer);
  const canSpy = viewer ? allowed(viewer, "ticket-options:spy") : false;
  const [spyOn, setSpyOn] = useState<TicketItem | null>(null);

  return (
    <AdminPage
      title={t("kanban.title")}
      search={{ value: board.filters.searchParam, onChange: (v) => board.setFilters((f) => ({ ...f, searchParam: v })) }}
      testId="kanban-page"
    >
      <KanbanFiltersBar filters={board.filters} onChange={board.setFilters} manager={board.manager} />
      {board.status === "loading" && <Skeleton />}
      {board.status === "error" && <ErrorState onRetry={board.reload} />}
      {board.status === "ready" && (
        <>
          {!board.hasLaneTags && <EmptyState text={t("kanban.noLanes")} />}
          <KanbanBoard lanes={board.lanes} onMove={board.move} onSpy={canSpy ? setSpyOn : undefined} />
        </>
      )}
      {spyOn && (
        <Suspense fallback={null}>
          <TicketMessagesDialog ticket={spyOn} onClose={() => setSpyOn(null)} />
        </Suspense>
      )}
    </AdminPage>
  );
}
