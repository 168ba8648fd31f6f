/**
 * The campaign report (/campaign/{id}/report, spec 002 §2.4): a status line with the
 * delivered count out of the valid contacts and a progress bar; the eight cards (valid
 * contacts, confirmations requested, confirmations, delivered, connection, contact list,
 * schedule, completion); the detail table (number, confirmation message, confirmation sent,
 * confirmed, message, final send), a server page at a time with a search by number or name,
 * a status filter (the cards' own tests) and the kit's Pager. Live and paged data:
 * campaigns/use_campaign_report.ts.
 */
import { type ReactNode, useId, useMemo } from "react";
import { ArrowLeft } from "lucide-react";
import { SHIPPING_FILTERS, SHIPPING_PAGE_SIZES, type ShippingFilter } from "../domain/campaign_report.ts";
import { t } from "./lib/i18n.ts";
import { AdminPage, type AdminPageProps, useViewer } from "./ui/AdminPage.tsx";
import { type ColumnDef, DataTable } from "./ui/DataTable.tsx";
import { LocalDateTime } from "./ui/LocalDateTime.tsx";
import { Pager } from "./ui/Pager.tsx";
import { type CampaignReport, type ShippingRow, useCampaignReport } from "./campaigns/use_campaign_report.ts";

export type { CampaignReport, ShippingRow } from "./campaigns/use_campaign_report.ts";

/** Props of the CampaignReportPage island: the report and the campaign id of the address. */
export type CampaignReportPageProps = AdminPageProps<CampaignReport> & { campaignId: number };

const rowId = (r: ShippingRow) => r.id;
const dateCell = (value: string | null) => (value ? <LocalDateTime value={value} /> : "—");

/** The report page. */
export default function CampaignReportPage({ initial, viewer: serverViewer, campaignId }: CampaignReportPageProps) {
  const viewer = useViewer(serverViewer);
  const { report, list, query, total, setStatusFilter, setPage, setPageSize } = useCampaignReport(campaignId, initial, viewer);
  const filterId = useId();

  const columns = useMemo<ColumnDef<ShippingRow, unknown>[]>(() => [
    { accessorKey: "number", header: t("campaignReport.colNumber") },
    { accessorKey: "confirmationMessage", header: t("campaignReport.colConfirmationMessage"), cell: ({ getValue }) => (getValue() as string | null) || "—" },
    { accessorKey: "confirmationRequestedAt", header: t("campaignReport.colConfirmationSent"), cell: ({ row }) => dateCell(row.original.confirmationRequestedAt) },
    { accessorKey: "confirmedAt", header: t("campaignReport.colConfirmed"), cell: ({ row }) => dateCell(row.original.confirmedAt) },
    { accessorKey: "message", header: t("campaignReport.colMessage"), meta: { className: "campaign-report-message" } },
    { accessorKey: "deliveredAt", header: t("campaignReport.colDelivered"), cell: ({ row }) => dateCell(row.original.deliveredAt) },
  ], []);

  const c = report?.campaign;
  const counts = report?.counts;
  const valid = counts?.validContacts ?? 0;
  const delivered = counts?.delivered ?? 0;
  const cards: Array<[string, ReactNode, string]> = [
    [t("campaignReport.validContacts"), valid, "valid"],
    [t("campaignReport.confirmationRequested"), counts?.confirmationRequested ?? 0, "requested"],
    [t("campaignReport.confirmed"), counts?.confirmed ?? 0, "confirmed"],
    [t("campaignReport.delivered"), delivered, "delivered"],
    [t("campaignReport.connection"), c?.whatsappName ?? "—", "connection"],
    [t("campaignReport.contactList"), [c?.contactList?.name, c?.groupList?.name].filter(Boolean).join(" + ") || "—", "list"],
    [t("campaignReport.schedule"), c?.scheduledAt ? <LocalDateTime key="s" value={c.scheduledAt} /> : "—", "schedule"],
    [
      t("campaignReport.completion"),
      c?.completedAt
        ? <LocalDateTime key="c" value={c.completedAt} />
        : c?.estimatedEndAt
        ? <span key="c" className="muted" title={t("campaigns.estimateHint")}>{t("campaigns.estimate")} <LocalDateTime value={c.estimatedEndAt} /></span>
        : "—",
      "completion",
    ],
  ];

  return (
    <AdminPage
      title={c ? `${t("campaignReport.title")}: ${c.name}` : t("campaignReport.title")}
      search={{ value: list.search, onChange: list.setSearch }}
      actions={
        <a className="btn" href="/campaigns">
          <ArrowLeft size={16} aria-hidden="true" /> {t("campaignReport.back")}
        </a>
      }
      testId="campaign-report"
    >
      <div className="campaign-report-status">
        <p data-testid="campaign-progress-text">
          {t("campaignReport.progress", { delivered, valid })}
          {c && <span className={`chip campaign-status campaign-status-${c.status}`}>{t(`campaigns.status.${c.status}`)}</span>}
        </p>
        <progress
          className="campaign-progress"
          max={Math.max(valid, 1)}
          value={Math.min(delivered, Math.max(valid, 1))}
          aria-label={t("campaignReport.delivered")}
          data-testid="campaign-progress"
        />
      </div>
      <div className="campaign-cards">
        {cards.map(([label, value, key]) => (
          <div key={key} className="card campaign-card" data-testid={`campaign-card-${key}`}>
            <span className="campaign-card-title">{label}</span>
            <strong className="campaign-card-value">{value}</strong>
          </div>
        ))}
      </div>
      <div className="campaign-report-filter">
        <label htmlFor={filterId}>{t("campaignReport.filter")}</label>
        <select
          id={filterId}
          className="input"
          value={query.status}
          onChange={(e) => setStatusFilter(e.target.value as ShippingFilter)}
          data-testid="campaign-shipping-filter"
        >
          {SHIPPING_FILTERS.map((f) => <option key={f} value={f}>{t(`campaignReport.filter.${f}`)}</option>)}
        </select>
      </div>
      <div className="campaign-report-detail">
        <DataTable
          list={list}
          columns={columns}
          rowId={rowId}
          label={t("campaignReport.title")}
          emptyText={t(query.searchParam || query.status !== "all" ? "campaignReport.noMatch" : "campaignReport.empty")}
          testId="campaign-shipping"
        />
        <Pager
          page={query.pageNumber}
          pageSize={query.pageSize}
          shown={report ? { page: report.pageNumber, pageSize: report.pageSize } : undefined}
          total={total}
          sizes={SHIPPING_PAGE_SIZES}
          onPage={setPage}
          onPageSize={setPageSize}
          disabled={list.status === "loading"}
          testId="campaign-shipping-pager"
        />
      </div>
    </AdminPage>
  );
}
