/**
 * The queues screen (spec 001 §2.15): a table sorted by prioridade ascending (id, name,
 * prioridade, colour swatch, greeting, actions), the queue dialog with its tabs (data, opening
 * hours when scheduleType is `queue`, integrations, and the bot flow of a saved queue), delete
 * with the §8 confirmation. Only `queues:manage` (admin) adds, edits and deletes; the server
 * enforces the same. Rows change live on `company-{id}-queue`.
 */
import { useMemo } from "react";
import { get } from "./lib/api.ts";
import { t } from "./lib/i18n.ts";
import { allowed, setting } from "./lib/session.ts";
import { AdminPage, type AdminPageProps, useViewer } from "./ui/AdminPage.tsx";
import { actionsColumn } from "./ui/row_actions.tsx";
import { AddButton, useRecordDialogs } from "./ui/record_dialogs.tsx";
import { ConfirmDialog } from "./ui/ConfirmDialog.tsx";
import { type ColumnDef, DataTable } from "./ui/DataTable.tsx";
import { usePagedList } from "./ui/use_paged_list.ts";
import { useLiveRows } from "./ui/use_live_rows.ts";
import { QueueDialog } from "./queues/QueueDialog.tsx";
import type { QueueRow } from "./queues/types.ts";

export type { QueueRow };

/** Props of the QueuesPage island: GET /queue's array as the first data. */
export type QueuesPageProps = AdminPageProps<QueueRow[]>;

const rowId = (queue: QueueRow) => queue.id;

/** The queues page. */
export default function QueuesPage({ initial, viewer: serverViewer }: QueuesPageProps) {
  const viewer = useViewer(serverViewer);
  const manager = viewer ? allowed(viewer, "queues:manage") : false;
  const perQueue = viewer ? setting(viewer, "scheduleType") === "queue" : false;
  const list = usePagedList<QueueRow>({
    initial: initial && { rows: initial, hasMore: false },
    // GET /queue is not paged: one call answers every queue of the company.
    fetchPage: async () => ({ rows: await get<QueueRow[]>("/queue"), hasMore: false }),
    rowId,
  });
  useLiveRows(viewer, list, { suffix: "queue", record: "queue", idKey: "queueId" });
  const dialogs = useRecordDialogs(list, { path: "/queue", deletedText: t("queues.deleted") });

  const columns = useMemo<ColumnDef<QueueRow, unknown>[]>(() => [
    { accessorKey: "id", header: t("queues.colId") },
    { accessorKey: "name", header: t("queues.colName") },
    { accessorKey: "prioridade", header: t("queues.colPriority"), meta: { className: "col-center" } },
    {
      accessorKey: "color",
      header: t("queues.colColor"),
      meta: { className: "col-center" },
      cell: ({ row }) => <span className="color-swatch" style={{ background: row.original.color }} title={row.original.color} />,
    },
    {
      accessorKey: "greetingMessage",
      header: t("queues.colGreeting"),
      meta: { className: "queues-greeting" },
      cell: ({ row }) => <span className="queues-clip" title={row.original.greetingMessage}>{row.original.greetingMessage}</span>,
    },
    actionsColumn<QueueRow>({ onEdit: manager ? dialogs.edit : undefined, onDelete: manager ? dialogs.askDelete : undefined }),
  ], [manager]);

  return (
    <AdminPage
      title={t("queues.title")}
      actions={manager && (
        <AddButton label={t("queues.add")} onClick={dialogs.add} />
      )}
      testId="queues-page"
    >
      <DataTable
        list={list}
        columns={columns}
        rowId={rowId}
        label={t("queues.title")}
        emptyText={t("queues.empty")}
        initialSorting={[{ id: "prioridade", desc: false }]}
        testId="queues-table"
      />
      {dialogs.editing && (
        <QueueDialog
          row={dialogs.row}
          queues={list.rows}
          perQueueHours={perQueue}
          viewer={viewer}
          onClose={dialogs.close}
          onSaved={dialogs.saved}
        />
      )}
      <ConfirmDialog {...dialogs.confirmDelete} />
    </AdminPage>
  );
}
