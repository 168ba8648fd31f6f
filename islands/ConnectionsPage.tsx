/**
 * The connections screen (spec 001 §2.1–2.3, §4): every connection of the company in one
 * table (GET /whatsapp is not paged): id, name, number (international mask), status, the
 * Evolution status, the session actions, last update, default, queues, actions. Admins add,
 * edit and restart (`connections-page:*`); only the platform owner deletes. Rows change
 * live from `company-{id}-whatsapp` (records) and `company-{id}-whatsappSession` (status and
 * QR, with the toasts of its flags); the QR dialog reads the live row.
 */
import { useCallback, useMemo, useRef, useState } from "react";
import { Check, RotateCw, Smartphone } from "lucide-react";
import { Tooltip } from "radix-ui";
import { formatPhone } from "../domain/phone_mask.ts";
import { api } from "./lib/api.ts";
import { t } from "./lib/i18n.ts";
import { allowed } from "./lib/session.ts";
import { showToast, toastError } from "./lib/toast.ts";
import { AdminPage, type AdminPageProps, useViewer } from "./ui/AdminPage.tsx";
import { ConfirmDialog } from "./ui/ConfirmDialog.tsx";
import { type ColumnDef, DataTable } from "./ui/DataTable.tsx";
import { actionsColumn } from "./ui/row_actions.tsx";
import { AddButton, useRecordDialogs } from "./ui/record_dialogs.tsx";
import { usePagedList } from "./ui/use_paged_list.ts";
import { useLiveRows } from "./ui/use_live_rows.ts";
import { ConnectionDialog } from "./connections/ConnectionDialog.tsx";
import { LocalDateTime } from "./ui/LocalDateTime.tsx";
import { QrCodeDialog } from "./connections/QrCodeDialog.tsx";
import { type ConnectionRow, libOf, type QueueRef, queuesFor, rowId, type SessionLib } from "./connections/rows.ts";
import { SessionActions, StatusBadge } from "./connections/SessionActions.tsx";
import { useSessionEvents } from "./connections/use_session_events.ts";

/** Props of the ConnectionsPage island: GET /whatsapp's array, read on the server. */
export type ConnectionsPageProps = AdminPageProps<ConnectionRow[]>;

const dash = () => <span className="muted">{t("connections.noValue")}</span>;

/** The connections page. */
export default function ConnectionsPage({ initial, viewer: serverViewer }: ConnectionsPageProps) {
  const viewer = useViewer(serverViewer);
  const may = (p: Parameters<typeof allowed>[1]) => (viewer ? allowed(viewer, p) : false);
  const canAdd = may("connections-page:addConnection");
  const canAct = may("connections-page:actionButtons");
  const canEdit = may("connections-page:editOrDeleteConnection");
  const canDelete = may("super:deleteConnection");

  const list = usePagedList<ConnectionRow>({
    initial: initial && { rows: initial, hasMore: false },
    fetchPage: async () => ({ rows: await api<ConnectionRow[]>("GET", "/whatsapp"), hasMore: false }),
    rowId,
  });

  // Queue names seen so far: a record event carries queueIds only.
  const known = useRef(new Map<number, QueueRef>());
  for (const row of list.rows) for (const q of row.queues ?? []) known.current.set(q.id, q);
  const learnQueues = useCallback((queues: QueueRef[]) => {
    for (const q of queues) known.current.set(q.id, q);
  }, []);
  useLiveRows(viewer, list, {
    suffix: "whatsapp",
    record: "whatsapp",
    idKey: "whatsappId",
    toRow: (record) => {
      const queues = queuesFor((record.queueIds as number[] | undefined) ?? [], known.current);
      if (!queues) {
        list.reload();
        return null;
      }
      return { ...(record as unknown as ConnectionRow), queues };
    },
  });
  useSessionEvents(viewer, list);

  const dialogs = useRecordDialogs(list, { path: "/whatsapp", deletedText: t("connections.deleted") });
  const [qr, setQr] = useState<{ id: number; lib: SessionLib } | null>(null);
  const showQr = useCallback((row: ConnectionRow, lib: SessionLib) => setQr({ id: row.id, lib }), []);

  const columns = useMemo<ColumnDef<ConnectionRow, unknown>[]>(() => [
    { accessorKey: "id", header: t("connections.colId") },
    { accessorKey: "name", header: t("connections.colName") },
    {
      accessorKey: "number",
      header: t("connections.colNumber"),
      meta: { className: "col-nowrap" },
      cell: ({ row }) => formatPhone(row.original.number) || dash(),
    },
    { accessorKey: "status", header: t("connections.colStatus"), cell: ({ row }) => <StatusBadge status={row.original.status} /> },
    {
      accessorKey: "statusEvo",
      header: t("connections.colStatusEvo"),
      cell: ({ row }) =>
        libOf(row.original) === "evolution"
          ? (
            <span className="session-cell">
              <StatusBadge status={row.original.statusEvo} />
              {canAct && <SessionActions row={row.original} lib="evolution" onShowQr={showQr} />}
            </span>
          )
          : dash(),
    },
    {
      id: "session",
      header: t("connections.colSession"),
      enableSorting: false,
      cell: ({ row }) =>
        canAct && libOf(row.original) === "baileys"
          ? (
            <span className="session-cell">
              <SessionActions row={row.original} lib="baileys" onShowQr={showQr} />
              {row.original.provider === "simulator" && (
                // The customers' side of a simulated number: its phone (/simulator, issue #37).
                <a className="btn btn-small" href={`/simulator?c=${row.original.id}`} data-testid="open-simulator">
                  <Smartphone size={16} aria-hidden="true" /> {t("simulator.openPhone")}
                </a>
              )}
            </span>
          )
          : dash(),
    },
    {
      accessorKey: "updatedAt",
      header: t("connections.colUpdatedAt"),
      meta: { className: "col-nowrap" },
      cell: ({ row }) => <LocalDateTime value={row.original.updatedAt} />,
    },
    {
      accessorKey: "isDefault",
      header: t("connections.colDefault"),
      meta: { className: "col-center" },
      cell: ({ row }) => row.original.isDefault && <Check size={18} className="default-mark" aria-label={t("common.yes")} />,
    },
    {
      id: "queues",
      header: t("connections.colQueues"),
      enableSorting: false,
      cell: ({ row }) => (row.original.queues ?? []).map((q) => q.name).join(", ") || t("connections.noQueues"),
    },
    actionsColumn<ConnectionRow>({
      onEdit: canEdit ? dialogs.edit : undefined,
      onDelete: canDelete ? dialogs.askDelete : undefined,
    }),
  ], [canAct, canEdit, canDelete, showQr]);

  async function restart() {
    showToast("warning", t("connections.restarting"));
    try {
      await api("POST", "/whatsapp-restart/");
    } catch (error) {
      toastError((error as { body?: unknown }).body ?? error);
    }
  }

  return (
    <Tooltip.Provider delayDuration={200}>
      <AdminPage
        title={t("connections.title")}
        actions={
          <>
            {canAct && (
              <button type="button" className="btn" onClick={restart}>
                <RotateCw size={16} aria-hidden="true" /> {t("connections.restart")}
              </button>
            )}
            {canAdd && (
              <AddButton label={t("connections.add")} onClick={dialogs.add} />
            )}
          </>
        }
        testId="connections-page"
      >
        <DataTable
          list={list}
          columns={columns}
          rowId={rowId}
          label={t("connections.title")}
          emptyText={t("connections.empty")}
          initialSorting={[{ id: "id", desc: false }]}
          testId="connections-table"
        />
        {dialogs.editing && (
          <ConnectionDialog row={dialogs.row} onClose={dialogs.close} onSaved={dialogs.saved} onQueues={learnQueues} />
        )}
        {qr && <QrCodeDialog row={list.rows.find((r) => r.id === qr.id) ?? null} lib={qr.lib} onClose={() => setQr(null)} />}
        <ConfirmDialog {...dialogs.confirmDelete} />
      </AdminPage>
    </Tooltip.Provider>
  );
}
