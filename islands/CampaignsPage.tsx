/**
 * The campaigns list (spec 002 §2.2): search, infinite scroll, the eight columns (name,
 * status, contact list, connection, scheduled at, completed at, confirmation, actions) and
 * per row: stop (only while EM_ANDAMENTO, §4), report, edit (read-only when not editable)
 * and delete with the §8 confirmation (not while running: the server refuses it too). Rows
 * change live on `company-{id}-campaign` ({ action, record, id }). Admin and supervisor with
 * the plan flag useCampaigns only (islands/shell/menu.ts routeGate; the server checks too).
 */
import { useMemo } from "react";
import { FileBarChart, StopCircle } from "lucide-react";
import { isDeletable } from "../domain/campaign.ts";
import { api, get, query } from "./lib/api.ts";
import { t } from "./lib/i18n.ts";
import { showToast, toastError } from "./lib/toast.ts";
import { AdminPage, type AdminPageProps, IconButton, useViewer } from "./ui/AdminPage.tsx";
import { ConfirmDialog } from "./ui/ConfirmDialog.tsx";
import { type ColumnDef, DataTable } from "./ui/DataTable.tsx";
import { LocalDateTime } from "./ui/LocalDateTime.tsx";
import { actionsColumn } from "./ui/row_actions.tsx";
import { AddButton, useRecordDialogs } from "./ui/record_dialogs.tsx";
import { useLiveRows } from "./ui/use_live_rows.ts";
import { useOptions } from "./ui/use_options.ts";
import { usePagedList } from "./ui/use_paged_list.ts";
import { CampaignDialog } from "./campaigns/CampaignDialog.tsx";
import type { CampaignRow, CampaignsResponse } from "./campaigns/types.ts";

/** Props of the CampaignsPage island. */
export type CampaignsPageProps = AdminPageProps<CampaignsResponse>;

const rowId = (c: CampaignRow) => c.id;

/** A date cell, or a dash. */
const dateCell = (value: string | null) => (value ? <LocalDateTime value={value} /> : "—");

/** The campaigns page. */
export default function CampaignsPage({ initial, viewer: serverViewer }: CampaignsPageProps) {
  const viewer = useViewer(serverViewer);
  const list = usePagedList<CampaignRow>({
    initial: initial && { rows: initial.records, hasMore: initial.hasMore, count: initial.count },
    fetchPage: async (pageNumber, searchParam) => {
      const r = await get<CampaignsResponse>(`/campaigns/${query({ searchParam, pageNumber })}`);
      return { rows: r.records, hasMore: r.hasMore, count: r.count };
    },
    rowId,
  });
  // Events carry the bare record: keep the joined names the row had.
  useLiveRows(viewer, list, {
    suffix: "campaign",
    record: "record",
    idKey: "id",
    toRow: (record, current) => ({ ...current, ...record }) as CampaignRow,
  });
  // Names for rows that came by a live event (its record carries ids only).
  const connections = useOptions("/whatsapp");
  const contactLists = useOptions("/contact-lists/list");
  const dialogs = useRecordDialogs(list, { path: "/campaigns", deletedText: t("campaigns.deleted") });

  async function stop(row: CampaignRow) {
    try {
      list.upsert(await api<CampaignRow>("POST", `/campaigns/${row.id}/cancel`));
      showToast("success", t("campaigns.stopped"));
    } catch (error) {
      // §8: a failed stop shows the server's message.
      toastError((error as { body?: unknown }).body ?? error);
    }
  }

  const columns = useMemo<ColumnDef<CampaignRow, unknown>[]>(() => [
    { accessorKey: "name", header: t("campaigns.colName") },
    {
      accessorKey: "status",
      header: t("campaigns.colStatus"),
      cell: ({ row }) => <span className={`chip campaign-status campaign-status-${row.original.status}`}>{t(`campaigns.status.${row.original.status}`)}</span>,
    },
    {
      id: "contactList",
      header: t("campaigns.colContactList"),
      // A campaign to a group list only shows the group's name here.
      cell: ({ row }) =>
        row.original.contactList?.name ?? contactLists.find((l) => l.id === row.original.contactListId)?.name ??
          row.original.groupList?.name ?? "—",
    },
    {
      id: "whatsapp",
      header: t("campaigns.colWhatsapp"),
      cell: ({ row }) => row.original.whatsappName ?? connections.find((c) => c.id === row.original.whatsappId)?.name ?? "—",
    },
    { accessorKey: "scheduledAt", header: t("campaigns.colScheduledAt"), cell: ({ row }) => dateCell(row.original.scheduledAt) },
    {
      accessorKey: "completedAt",
      header: t("campaigns.colCompletedAt"),
      // Not finished yet: the expected end at the settings' pace (#41).
      cell: ({ row }) =>
        row.original.completedAt || !row.original.estimatedEndAt ? dateCell(row.original.completedAt) : (
          <span className="muted" data-testid="campaign-estimate" title={t("campaigns.estimateHint")}>
            {t("campaigns.estimate")} <LocalDateTime value={row.original.estimatedEndAt} />
          </span>
        ),
    },
    {
      accessorKey: "confirmation",
      header: t("campaigns.colConfirmation"),
      cell: ({ row }) => t(row.original.confirmation ? "campaigns.enabled" : "campaigns.disabled"),
    },
    actionsColumn<CampaignRow>({
      onEdit: dialogs.edit,
      onDelete: dialogs.askDelete,
      canDelete: isDeletable,
      extra: (row) => (
        <>
          {row.status === "EM_ANDAMENTO" && (
            <IconButton label={t("campaigns.stop")} onClick={() => stop(row)} danger><StopCircle size={16} /></IconButton>
          )}
          <a className="icon-btn" href={`/campaign/${row.id}/report`} aria-label={t("campaigns.report")} title={t("campaigns.report")}>
            <FileBarChart size={16} />
          </a>
        </>
      ),
    }),
  ], [connections, contactLists]);

  return (
    <AdminPage
      title={t("campaigns.title")}
      search={{ value: list.search, onChange: list.setSearch }}
      actions={
        <AddButton label={t("campaigns.add")} onClick={dialogs.add} />
      }
      testId="campaigns-page"
    >
      <DataTable
        list={list}
        columns={columns}
        rowId={rowId}
        label={t("campaigns.title")}
        emptyText={t("campaigns.empty")}
        testId="campaigns-table"
      />
      {dialogs.editing && <CampaignDialog row={dialogs.row} onClose={dialogs.close} onSaved={dialogs.saved} />}
      <ConfirmDialog {...dialogs.confirmDelete} />
    </AdminPage>
  );
}
