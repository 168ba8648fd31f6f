/**
 * The delivery log of one subscription: its pending and last finished deliveries, newest
 * first (time, event, status, HTTP code, duration, attempts, error), whether the target is
 * backing off, and "Reenviar" on a finished delivery (a new delivery of the same event).
 * Refreshed every 5 s while open, and by its button.
 */
import { useEffect, useMemo, useState } from "react";
import { RefreshCw, Send } from "lucide-react";
import { api, get } from "../lib/api.ts";
import { t } from "../lib/i18n.ts";
import { showToast, toastError } from "../lib/toast.ts";
import { type ColumnDef, DataTable } from "../ui/DataTable.tsx";
import { LocalDateTime } from "../ui/LocalDateTime.tsx";
import { Modal } from "../ui/Modal.tsx";
import { usePagedList } from "../ui/use_paged_list.ts";
import { type DeliveryStatus, eventLabel, REFRESH_MS, statusLabel, type WebhookRow } from "./rows.ts";

/** A delivery as GET …/deliveries lists it. */
interface DeliveryRow {
  id: string;
  event: string;
  status: DeliveryStatus;
  createdAt: number;
  attempts: number;
  statusCode: number | null;
  durationMs: number | null;
  error: string | null;
}

interface LogResponse {
  deliveries: DeliveryRow[];
  pending: number;
  failures: number;
  retryAt: number | null;
}


/** The log dialog of `webhook`. */
export function DeliveryLog({ webhook, onClose }: { webhook: WebhookRow; onClose: () => void }) {
  const path = `/webhooks/subscriptions/${webhook.id}/deliveries`;
  const [log, setLog] = useState<LogResponse | null>(null);
  const list = usePagedList<DeliveryRow>({
    initial: null,
    fetchPage: async () => {
      const answer = await get<LogResponse>(path);
      setLog(answer);
      return { rows: answer.deliveries, hasMore: false, count: answer.pending };
    },
    rowId: (d) => d.id,
  });
  useEffect(() => {
    const timer = setInterval(() => list.reload(), REFRESH_MS);
    return () => clearInterval(timer);
  }, []);

  const columns = useMemo<ColumnDef<DeliveryRow, unknown>[]>(() => [
    { accessorKey: "createdAt", header: t("webhooks.colTime"), cell: ({ row }) => <LocalDateTime value={row.original.createdAt} /> },
    { accessorKey: "event", header: t("webhooks.colEvent"), cell: ({ row }) => <span title={row.original.event}>{eventLabel(row.original.event)}</span> },
    {
      accessorKey: "status",
      header: t("webhooks.colStatus"),
      cell: ({ row }) => <span className={`webhook-state webhook-state-${row.original.status}`}>{statusLabel(row.original.status)}</span>,
    },
    { accessorKey: "statusCode", header: t("webhooks.colCode"), meta: { className: "col-center" }, cell: ({ getValue }) => getValue() ?? "—" },
    {
      accessorKey: "durationMs",
      header: t("webhooks.colDuration"),
      meta: { className: "col-center" },
      cell: ({ getValue }) => (getValue() === null ? "—" : `${getValue()} ms`),
    },
    { accessorKey: "attempts", header: t("webhooks.colAttempts"), meta: { className: "col-center" } },
    { accessorKey: "error", header: t("webhooks.colError"), enableSorting: false, cell: ({ getValue }) => <span className="webhook-error">{(getValue() as string | null) ?? ""}</span> },
    {
      id: "actions",
      header: () => <span className="sr-only">{t("common.actions")}</span>,
      enableSorting: false,
      meta: { className: "col-actions" },
      cell: ({ row }) =>
        row.original.status === "pending" ? null : (
          <button type="button" className="btn btn-small" onClick={() => resend(row.original.id)}>
            <Send size={14} aria-hidden="true" /> {t("webhooks.resend")}
          </button>
        ),
    },
  ], []);

  async function resend(id: string) {
    try {
      await api("POST", `${path}/${encodeURIComponent(id)}/resend`);
      showToast("success", t("webhooks.resent"));
      await list.reload();
    } catch (error) {
      toastError((error as { body?: unknown }).body ?? error);
    }
  }

  return (
    <Modal open onOpenChange={(o) => !o && onClose()} title={t("webhooks.logTitle", { url: webhook.url })} wide>
      <div className="webhook-log-head">
        <span className="muted">
          {t("webhooks.logPending", { count: log?.pending ?? 0 })}
          {log?.retryAt ? <> · {t("webhooks.logRetryAt", { time: new Date(log.retryAt).toLocaleTimeString() })}</> : null}
        </span>
        <button type="button" className="btn" onClick={() => list.reload()}>
          <RefreshCw size={16} aria-hidden="true" /> {t("webhooks.refresh")}
        </button>
      </div>
      <DataTable list={list} columns={columns} rowId={(d) => d.id} label={t("webhooks.deliveries")} emptyText={t("webhooks.logEmpty")} testId="webhook-log" />
    </Modal>
  );
}
