/**
 * The platform owner's dropped connections (issue #40; not in the spec's route list): every
 * company's WhatsApp connections that stayed disconnected past the grace period, the ones still
 * down first (longest first), then those restored in the last week. Read-only: the company's
 * admins reconnect from their Connections page; this page shows the owner where to call.
 */
import { useMemo } from "react";
import { RefreshCw } from "lucide-react";
import type { ConnectionAlertView } from "../domain/connection_alert.ts";
import { get } from "./lib/api.ts";
import { formatDate, formatTime } from "./lib/format.ts";
import { type LocaleKey, t } from "./lib/i18n.ts";
import { AdminPage, type AdminPageProps, IconButton } from "./ui/AdminPage.tsx";
import { type ColumnDef, DataTable } from "./ui/DataTable.tsx";
import { LocalDateTime } from "./ui/LocalDateTime.tsx";
import { usePagedList } from "./ui/use_paged_list.ts";

/** GET /connection-alerts?all=true body. */
interface AlertsResponse {
  alerts: ConnectionAlertView[];
}

/** Props of the ConnectionAlertsPage island. */
export type ConnectionAlertsPageProps = AdminPageProps<AlertsResponse>;

const rowId = (a: ConnectionAlertView) => `${a.companyId}:${a.whatsappId}`;

/** The dropped connections page. */
export default function ConnectionAlertsPage({ initial }: ConnectionAlertsPageProps) {
  const list = usePagedList<ConnectionAlertView>({
    initial: initial && { rows: initial.alerts, hasMore: false },
    fetchPage: async () => ({ rows: (await get<AlertsResponse>("/connection-alerts?all=true")).alerts, hasMore: false }),
    rowId,
  });
  const columns = useMemo<ColumnDef<ConnectionAlertView, unknown>[]>(() => [
    { accessorKey: "companyName", header: t("connectionAlerts.colCompany") },
    { accessorKey: "name", header: t("connectionAlerts.colConnection") },
    {
      id: "status",
      header: t("connectionAlerts.colStatus"),
      cell: ({ row }) => {
        const back = row.original.restoredAt;
        return back
          ? <span className="tone-success">{t("connectionAlerts.restored", { time: `${formatDate(back)} ${formatTime(back)}` })}</span>
          : <strong className="tone-danger">{t("connectionAlerts.down")}</strong>;
      },
    },
    { accessorKey: "droppedAt", header: t("connectionAlerts.colDropped"), cell: ({ row }) => <LocalDateTime value={row.original.droppedAt} /> },
    {
      accessorKey: "provider",
      header: t("connectionAlerts.colChannel"),
      cell: ({ row }) => t(`connections.provider.${row.original.provider}` as LocaleKey),
    },
  ], []);
  const down = list.rows.filter((a) => a.restoredAt === null).length;
  return (
    <AdminPage
      title={t("connectionAlerts.title")}
      count={down}
      actions={
        <IconButton label={t("connectionAlerts.refresh")} onClick={() => void list.reload()}>
          <RefreshCw size={18} />
        </IconButton>
      }
      testId="connection-alerts-page"
    >
      <p className="muted">{t("connectionAlerts.intro")}</p>
      <DataTable list={list} columns={columns} rowId={rowId} label={t("connectionAlerts.title")} emptyText={t("connectionAlerts.empty")} testId="connection-alerts-table" />
    </AdminPage>
  );
}
