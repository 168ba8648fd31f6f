/**
 * The campaign report (/campaign/{id}/report, spec 002 §2.4): a status line with the
 * delivered count out of the valid contacts and a progress bar; the eight cards (valid
 * contacts, confirmations requested, confirmations, delivered, connection, contact list,
 * schedule, completion); the detail table (number, confirmation message, confirmation sent,
 * confirmed, message, final send).
 *
 * Live: every `company-{id}-campaign` event for this campaign refetches GET
 * /campaigns/{id}/report (at most once a second, the engine emits one per send); an event
 * saying FINALIZADA refetches again 5 s later (§4, §9), when the last rows have settled.
 * The detail rows are all in the report's answer; the table shows them 50 at a time on
 * scroll so a 10,000-contact campaign does not draw 10,000 rows at once.
 */
import { type ReactNode, useEffect, useMemo, useRef, useState } from "react";
import { ArrowLeft } from "lucide-react";
import type { CampaignCounts } from "../domain/campaign.ts";
import { get } from "./lib/api.ts";
import { t } from "./lib/i18n.ts";
import { channelName, onChannel, startSocket } from "./lib/socket.ts";
import { AdminPage, type AdminPageProps, useViewer } from "./ui/AdminPage.tsx";
import { type ColumnDef, DataTable } from "./ui/DataTable.tsx";
import { LocalDateTime } from "./ui/LocalDateTime.tsx";
import { usePagedList } from "./ui/use_paged_list.ts";
import type { CampaignRow } from "./campaigns/types.ts";

/** One contact's shipping row as the report answers it (dates as ISO text). */
export interface ShippingRow {
  id: number;
  number: string;
  message: string;
  confirmationMessage: string | null;
  confirmationRequestedAt: string | null;
  confirmedAt: string | null;
  deliveredAt: string | null;
}

/** GET /campaigns/{id}/report body. */
export interface CampaignReport {
  campaign: CampaignRow;
  counts: CampaignCounts;
  shipping: ShippingRow[];
}

/** Props of the CampaignReportPage island: the report and the campaign id of the address. */
export type CampaignReportPageProps = AdminPageProps<CampaignReport> & { campaignId: number };

/** Detail rows drawn per scroll step. */
const STEP = 50;
/** §9: the report is read again this long after a finish event. */
const FINISH_REFETCH_MS = 5000;
/** Live refetches are spaced by at least this much. */
const LIVE_GAP_MS = 1000;

const rowId = (r: ShippingRow) => r.id;
const dateCell = (value: string | null) => (value ? <LocalDateTime value={value} /> : "—");

/** The report page. */
export default function CampaignReportPage({ initial, viewer: serverViewer, campaignId }: CampaignReportPageProps) {
  const viewer = useViewer(serverViewer);
  const [report, setReport] = useState<CampaignReport | null>(initial);
  const latest = useRef(report);
  latest.current = report;
  const list = usePagedList<ShippingRow>({
    initial: initial && { rows: initial.shipping.slice(0, STEP), hasMore: initial.shipping.length > STEP },
    fetchPage: async (page) => {
      const rows = latest.current?.shipping ?? (await refetch())?.shipping ?? [];
      return { rows: rows.slice((page - 1) * STEP, page * STEP), hasMore: rows.length > page * STEP };
    },
    rowId,
  });

  async function refetch(): Promise<CampaignReport | null> {
    try {
      const next = await get<CampaignReport>(`/campaigns/${campaignId}/report`);
      latest.current = next;
      setReport(next);
      return next;
    } catch {
      return null;
    }
  }

  // Live progress: refetch on this campaign's events, spaced; again 5 s after FINALIZADA.
  const listRef = useRef(list);
  listRef.current = list;
  useEffect(() => {
    if (!viewer) return;
    startSocket(viewer.companyId, viewer.id);
    let timer: ReturnType<typeof setTimeout> | undefined;
    let finish: ReturnType<typeof setTimeout> | undefined;
    let last = 0;
    const refresh = async () => {
      timer = undefined;
      last = Date.now();
      if (await refetch()) await listRef.current.reload();
    };
    const schedule = () => {
      if (timer === undefined) timer = setTimeout(refresh, Math.max(0, last + LIVE_GAP_MS - Date.now()));
    };
    const off = onChannel(channelName(viewer.companyId, "campaign"), (data) => {
      const event = data as { id?: number; record?: { id?: number; status?: string } };
      if ((event.record?.id ?? event.id) !== campaignId) return;
      schedule();
      if (event.record?.status === "FINALIZADA") {
        clearTimeout(finish);
        finish = setTimeout(refresh, FINISH_REFETCH_MS);
      }
    });
    const offResync = onChannel("resync", schedule);
    if (!latest.current) schedule();
    return () => {
      off();
      offResync();
      clearTimeout(timer);
      clearTimeout(finish);
    };
  }, [viewer?.id, viewer?.companyId, campaignId]);

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
    [t("campaignReport.contactList"), c?.contactList?.name ?? "—", "list"],
    [t("campaignReport.schedule"), c?.scheduledAt ? <LocalDateTime key="s" value={c.scheduledAt} /> : "—", "schedule"],
    [t("campaignReport.completion"), c?.completedAt ? <LocalDateTime key="c" value={c.completedAt} /> : "—", "completion"],
  ];

  return (
    <AdminPage
      title={c ? `${t("campaignReport.title")}: ${c.name}` : t("campaignReport.title")}
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
      <DataTable
        list={list}
        columns={columns}
        rowId={rowId}
        label={t("campaignReport.title")}
        emptyText={t("campaignReport.empty")}
        testId="campaign-shipping"
      />
    </AdminPage>
  );
}
