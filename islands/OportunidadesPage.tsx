/**
 * The opportunities screen (spec 002 §2.11): a searchable table with infinite scroll (id,
 * name, and how many tickets are linked to each, which the ticket options menu sets), a dialog
 * to add or rename one (name 2 to 50, the server's own OportunidadeInput), delete with the §8
 * confirmation. Everyone in the company may manage them (002 §6 names no role). Rows change
 * live on `company-{id}-oportunidade` (whose events lack the count: the row keeps its own).
 */
import { useMemo } from "react";
import { get, query } from "./lib/api.ts";
import { t } from "./lib/i18n.ts";
import { AdminPage, type AdminPageProps, useViewer } from "./ui/AdminPage.tsx";
import { actionsColumn } from "./ui/row_actions.tsx";
import { ConfirmDialog } from "./ui/ConfirmDialog.tsx";
import { type ColumnDef, DataTable } from "./ui/DataTable.tsx";
import { TextField } from "./ui/form.tsx";
import { AddButton, RecordDialog, type RecordDialogProps, useRecordDialogs, useRecordForm } from "./ui/record_dialogs.tsx";
import { usePagedList } from "./ui/use_paged_list.ts";
import { useLiveRows } from "./ui/use_live_rows.ts";

/** An opportunity row as GET /oportunidade/ answers it. */
export interface OportunidadeRow {
  id: number;
  name: string;
  /** Tickets linked to it; absent on live events. */
  ticketsCount?: number;
}

/** GET /oportunidade/ body. */
interface OportunidadesResponse {
  oportunidades: OportunidadeRow[];
  count: number;
  hasMore: boolean;
}

/** Props of the OportunidadesPage island. */
export type OportunidadesPageProps = AdminPageProps<OportunidadesResponse>;

const rowId = (row: OportunidadeRow) => row.id;

/** The opportunities page. */
export default function OportunidadesPage({ initial, viewer: serverViewer }: OportunidadesPageProps) {
  const viewer = useViewer(serverViewer);
  const list = usePagedList<OportunidadeRow>({
    initial: initial && { rows: initial.oportunidades, hasMore: initial.hasMore, count: initial.count },
    fetchPage: async (pageNumber, searchParam) => {
      const r = await get<OportunidadesResponse>(`/oportunidade/${query({ searchParam, pageNumber })}`);
      return { rows: r.oportunidades, hasMore: r.hasMore, count: r.count };
    },
    rowId,
  });
  useLiveRows(viewer, list, { suffix: "oportunidade", record: "record", idKey: "id" });
  const dialogs = useRecordDialogs(list, {
    path: "/oportunidade",
    deletedText: t("oportunidades.deleted"),
    // The answer lacks the count: a new one has no tickets, an edited one keeps its own.
    merge: (saved, before) => ({ ...saved, ticketsCount: before ? before.ticketsCount : 0 }),
  });

  const columns = useMemo<ColumnDef<OportunidadeRow, unknown>[]>(() => [
    { accessorKey: "id", header: t("oportunidades.colId") },
    { accessorKey: "name", header: t("oportunidades.colName"), meta: { className: "col-name" } },
    {
      accessorKey: "ticketsCount",
      header: t("oportunidades.colTickets"),
      meta: { className: "col-center" },
      cell: ({ getValue }) => <span data-testid="oportunidade-tickets">{String(getValue() ?? 0)}</span>,
    },
    actionsColumn<OportunidadeRow>({ onEdit: dialogs.edit, onDelete: dialogs.askDelete }),
  ], []);

  return (
    <AdminPage
      title={t("oportunidades.title")}
      count={list.count}
      search={{ value: list.search, onChange: list.setSearch }}
      actions={
        <AddButton label={t("oportunidades.add")} onClick={dialogs.add} />
      }
      testId="oportunidades-page"
    >
      <DataTable
        list={list}
        columns={columns}
        rowId={rowId}
        label={t("oportunidades.title")}
        emptyText={t("oportunidades.empty")}
        testId="oportunidades-table"
      />
      {dialogs.editing && <OportunidadeDialog row={dialogs.row} onClose={dialogs.close} onSaved={dialogs.saved} />}
      <ConfirmDialog {...dialogs.confirmDelete} />
    </AdminPage>
  );
}

/** The form's values (OportunidadeInput). */
interface OportunidadeValues extends Record<string, unknown> {
  name: string;
}

/** Add or rename one opportunity. */
function OportunidadeDialog({ row, onClose, onSaved }: RecordDialogProps<OportunidadeRow>) {
  const form = useRecordForm<OportunidadeValues, OportunidadeRow>({
    schema: "OportunidadeInput",
    initial: { name: row?.name ?? "" },
    path: "/oportunidade",
    row,
    body: (v) => ({ name: v.name }),
    savedText: t("oportunidades.saved"),
    onSaved,
    onClose,
  });
  return (
    <RecordDialog form={form} title={t(row ? "oportunidades.edit" : "oportunidades.add")} onClose={onClose} testId="oportunidade-save">
      <TextField form={form} name="name" label={t("oportunidades.name")} autoFocus className="form-full" />
    </RecordDialog>
  );
}
