/**
 * The webhooks screen (issue #22): the company's outbound webhook subscriptions in the admin
 * kit's table (URL, events, active, pending deliveries, last delivery), a dialog to add or
 * edit one (URL, events checklist, secret, active), delete with the §8 confirmation, and the
 * delivery log of each (webhooks/DeliveryLog.tsx) with its "Reenviar" button. Admins only
 * (the server enforces the same); rows change live on `company-{id}-webhook`.
 */
import { useEffect, useMemo, useState } from "react";
import { History } from "lucide-react";
import { get } from "./lib/api.ts";
import { t } from "./lib/i18n.ts";
import { AdminPage, type AdminPageProps, IconButton, useViewer } from "./ui/AdminPage.tsx";
import { actionsColumn } from "./ui/row_actions.tsx";
import { AddButton, useRecordDialogs } from "./ui/record_dialogs.tsx";
import { ConfirmDialog } from "./ui/ConfirmDialog.tsx";
import { type ColumnDef, DataTable } from "./ui/DataTable.tsx";
import { LocalDateTime } from "./ui/LocalDateTime.tsx";
import { usePagedList } from "./ui/use_paged_list.ts";
import { useLiveRows } from "./ui/use_live_rows.ts";
import { awaitsDelivery, eventLabel, REFRESH_MS, statusLabel, type WebhookRow } from "./webhooks/rows.ts";
import { WebhookDialog } from "./webhooks/WebhookDialog.tsx";
import { DeliveryLog } from "./webhooks/DeliveryLog.tsx";

/** GET /webhooks/subscriptions body. */
interface WebhooksResponse {
  subscriptions: WebhookRow[];
  count: number;
  hasMore: boolean;
}

/** Props of the WebhooksPage island. */
export type WebhooksPageProps = AdminPageProps<WebhooksResponse>;

const PATH = "/webhooks/subscriptions";
const rowId = (row: WebhookRow) => row.id;

/** The webhooks page. */
export default function WebhooksPage({ initial, viewer: serverViewer }: WebhooksPageProps) {
  const viewer = useViewer(serverViewer);
  const list = usePagedList<WebhookRow>({
    initial: initial && { rows: initial.subscriptions, hasMore: false, count: initial.count },
    fetchPage: async () => {
      const r = await get<WebhooksResponse>(PATH);
      return { rows: r.subscriptions, hasMore: false, count: r.count };
    },
    rowId,
  });
  useLiveRows(viewer, list, { suffix: "webhook", record: "webhook", idKey: "webhookId" });
  const dialogs = useRecordDialogs(list, {
    path: PATH,
    deletedText: t("webhooks.deleted"),
    // The answer lacks the delivery figures: a new one has none, an edited one keeps its own.
    merge: (saved, before) => ({ ...saved, pending: before?.pending ?? 0, lastDelivery: before?.lastDelivery ?? null }),
  });
  const [logOf, setLogOf] = useState<WebhookRow | null>(null);
  // Deliveries raise no live event: while one is under way, the table asks again until it lands.
  const waiting = list.rows.some(awaitsDelivery);
  useEffect(() => {
    if (!waiting || logOf) return;
    const timer = setInterval(() => list.reload(), REFRESH_MS);
    return () => clearInterval(timer);
  }, [waiting, logOf]);

  const columns = useMemo<ColumnDef<WebhookRow, unknown>[]>(() => [
    { accessorKey: "url", header: t("webhooks.colUrl"), cell: ({ row }) => <span className="webhook-url" title={row.original.url}>{row.original.url}</span> },
    {
      id: "events",
      header: t("webhooks.colEvents"),
      enableSorting: false,
      cell: ({ row }) => (
        <span className="webhook-events">
          {row.original.events.map((e) => <span key={e} className="chip chip-neutral" title={e}>{eventLabel(e)}</span>)}
        </span>
      ),
    },
    {
      accessorKey: "active",
      header: t("webhooks.colStatus"),
      cell: ({ row }) => (
        <span className={`webhook-state webhook-state-${row.original.active ? "active" : "inactive"}`}>
          {t(row.original.active ? "webhooks.active" : "webhooks.inactive")}
        </span>
      ),
    },
    { accessorKey: "pending", header: t("webhooks.colPending"), meta: { className: "col-center" }, cell: ({ getValue }) => getValue() ?? 0 },
    {
      id: "last",
      header: t("webhooks.colLast"),
      enableSorting: false,
      cell: ({ row }) => {
        const last = row.original.lastDelivery;
        if (!last) return <span className="muted">—</span>;
        return (
          <span className={`webhook-state webhook-state-${last.status}`}>
            {last.statusCode ?? statusLabel(last.status)} · <LocalDateTime value={last.createdAt} />
          </span>
        );
      },
    },
    actionsColumn<WebhookRow>({
      onEdit: dialogs.edit,
      onDelete: dialogs.askDelete,
      extra: (row) => (
        <IconButton label={t("webhooks.deliveries")} onClick={() => setLogOf(row)}><History size={16} /></IconButton>
      ),
    }),
  ], []);

  return (
    <AdminPage
      title={t("webhooks.title")}
      actions={
        <AddButton label={t("webhooks.add")} onClick={dialogs.add} />
      }
      testId="webhooks-page"
    >
      <p className="muted webhooks-intro">{t("webhooks.intro")}</p>
      <DataTable
        list={list}
        columns={columns}
        rowId={rowId}
        label={t("webhooks.title")}
        emptyText={t("webhooks.empty")}
        testId="webhooks-table"
      />
      {dialogs.editing && <WebhookDialog row={dialogs.row} onClose={dialogs.close} onSaved={dialogs.saved} />}
      {logOf && (
        <DeliveryLog
          webhook={logOf}
          onClose={() => {
            setLogOf(null);
            list.reload(); // the pending counts and last deliveries moved meanwhile
          }}
        />
      )}
      <ConfirmDialog {...dialogs.confirmDelete} />
    </AdminPage>
  );
}
