/**
 * The ticket report (spec 002 §2.14, /relatorios): the filters, a table of whatsappName,
 * contactName, userName, queueName, status (ABERTO green, FECHADO red, PENDENTE grey),
 * createdAt, closedAt and a link to the ticket by uuid, numbered pages of 5, 10, 20, 50 or
 * 100 rows (default 10), and Exportar, which streams an .xlsx of the applied filters with a
 * progress bar. The first page is rendered on the server.
 */
import { useMemo, useState } from "react";
import { Download, ExternalLink } from "lucide-react";
import { currentLang, t } from "./lib/i18n.ts";
import { manager as isManager } from "./lib/session.ts";
import { showToast, toastError } from "./lib/toast.ts";
import { AdminPage, type AdminPageProps, useViewer } from "./ui/AdminPage.tsx";
import { type ColumnDef, DataTable } from "./ui/DataTable.tsx";
import { LocalDateTime } from "./ui/LocalDateTime.tsx";
import { Pager } from "./ui/Pager.tsx";
import { REPORT_PAGE_SIZES } from "../domain/ticket_report.ts";
import { ReportFiltersForm } from "./reports/ReportFilters.tsx";
import { downloadReport, type ExportProgress } from "./reports/export.ts";
import { filterQuery } from "./reports/query.ts";
import { type ReportResponse, type ReportRow, useReport } from "./reports/use_report.ts";

/** Props of the ReportsPage island. */
export type ReportsPageProps = AdminPageProps<ReportResponse>;

const STATUS_LABEL = { open: "reports.labelOpen", closed: "reports.labelClosed", pending: "reports.labelPending" } as const;

function megabytes(bytes: number): string {
  return `${(bytes / 1_000_000).toLocaleString(currentLang() === "en" ? "en" : "pt-BR", { maximumFractionDigits: 1, minimumFractionDigits: 1 })} MB`;
}

/** The report page. */
export default function ReportsPage({ initial, viewer: serverViewer }: ReportsPageProps) {
  const viewer = useViewer(serverViewer);
  const report = useReport(initial, viewer);
  const [progress, setProgress] = useState<ExportProgress | null>(null);

  const columns = useMemo<ColumnDef<ReportRow, unknown>[]>(() => [
    { accessorKey: "whatsappName", header: t("reports.colWhatsapp"), enableSorting: false },
    { accessorKey: "contactName", header: t("reports.colContact"), enableSorting: false },
    { accessorKey: "userName", header: t("reports.colUser"), enableSorting: false },
    { accessorKey: "queueName", header: t("reports.colQueue"), enableSorting: false },
    {
      accessorKey: "status",
      header: t("reports.colStatus"),
      enableSorting: false,
      meta: { className: "col-center" },
      cell: ({ row }) => <span className={`status-chip status-${row.original.status}`}>{t(STATUS_LABEL[row.original.status])}</span>,
    },
    {
      accessorKey: "createdAt",
      header: t("reports.colCreated"),
      enableSorting: false,
      meta: { className: "col-nowrap" },
      cell: ({ row }) => <LocalDateTime value={row.original.createdAt} timeZone={report.timeZone} />,
    },
    {
      accessorKey: "closedAt",
      header: t("reports.colClosed"),
      enableSorting: false,
      meta: { className: "col-nowrap" },
      cell: ({ row }) => (row.original.closedAt ? <LocalDateTime value={row.original.closedAt} timeZone={report.timeZone} /> : null),
    },
    {
      id: "link",
      header: () => <span className="sr-only">{t("common.actions")}</span>,
      enableSorting: false,
      enableHiding: false,
      meta: { className: "col-actions" },
      cell: ({ row }) => (
        <a className="icon-btn" href={`/tickets/${row.original.uuid}`} aria-label={t("reports.openTicket", { id: row.original.id })} title={t("reports.openTicket", { id: row.original.id })}>
          <ExternalLink size={16} aria-hidden="true" />
        </a>
      ),
    },
  ], [report.timeZone]);

  async function exportSheet() {
    if (progress) return;
    setProgress({ total: report.total, received: 0, fraction: 0 });
    try {
      await downloadReport(filterQuery(report.applied, {}, report.timeZone), currentLang(), setProgress);
      showToast("success", t("reports.exported"));
    } catch (error) {
      toastError(error && typeof error === "object" && "error" in error ? error : t("reports.exportFailed"));
    } finally {
      setProgress(null);
    }
  }

  return (
    <AdminPage
      title={t("reports.title")}
      count={report.total}
      actions={
        <button type="button" className="btn btn-primary" onClick={exportSheet} disabled={progress !== null} aria-busy={progress !== null} data-testid="report-export">
          <Download size={16} aria-hidden="true" /> {t("reports.export")}
        </button>
      }
      testId="reports-page"
    >
      <ReportFiltersForm manager={viewer ? isManager(viewer) : false} onApply={report.apply} busy={report.list.status === "loading"} />
      <p className="muted report-zone" data-testid="report-zone">{t("reports.zone", { zone: report.timeZone })}</p>
      {progress && (
        <div className="report-progress" role="status" data-testid="report-progress">
          <progress max={1} value={progress.fraction} aria-label={t("reports.export")} />
          <span>{t("reports.exporting", { total: progress.total, size: megabytes(progress.received) })}</span>
        </div>
      )}
      <DataTable list={report.list} columns={columns} rowId={(r) => r.id} label={t("reports.title")} emptyText={t("reports.empty")} testId="report-table" />
      <Pager
        page={report.page}
        pageSize={report.pageSize}
        shown={report.shown}
        total={report.total}
        sizes={REPORT_PAGE_SIZES}
        onPage={report.setPage}
        onPageSize={report.setPageSize}
        disabled={report.list.status === "loading"}
        testId="report-pager"
      />
    </AdminPage>
  );
}
