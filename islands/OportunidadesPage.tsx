/**
 * The opportunities screen (spec 002 §2.11): a searchable table with infinite scroll (id,
 * name, and how many tickets are linked to each, which the ticket options menu sets), a dialog
 * to add or rename one (name 2 to 50, the server's own OportunidadeInput), delete with the §8
 * confirmation. Everyone in the company may manage them (002 §6 names no role). Rows change
 * live on `company-{id}-oportunidade` (whose events lack the count: the row keeps its own).
 */
import { useMemo, useState } from "react";
import { Plus } from "lucide-react";
import { api, get, query } from "./lib/api.ts";
import { t } from "./lib/i18n.ts";
import { showToast } from "./lib/toast.ts";
import { AdminPage, type AdminPageProps, useViewer } from "./ui/AdminPage.tsx";
import { actionsColumn, deleteRow } from "./ui/row_actions.tsx";
import { ConfirmDialog } from "./ui/ConfirmDialog.tsx";
import { type ColumnDef, DataTable } from "./ui/DataTable.tsx";
import { FormDialog, TextField, useSchemaForm } from "./ui/form.tsx";
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
  const [editing, setEditing] = useState<OportunidadeRow | "new" | null>(null);
  const [deleting, setDeleting] = useState<OportunidadeRow | null>(null);

  const columns = useMemo<ColumnDef<OportunidadeRow, unknown>[]>(() => [
    { accessorKey: "id", header: t("oportunidades.colId") },
    { accessorKey: "name", header: t("oportunidades.colName"), meta: { className: "col-name" } },
    {
      accessorKey: "ticketsCount",
      header: t("oportunidades.colTickets"),
      meta: { className: "col-center" },
      cell: ({ getValue }) => <span data-testid="oportunidade-tickets">{String(getValue() ?? 0)}</span>,
    },
    actionsColumn<OportunidadeRow>({ onEdit: setEditing, onDelete: setDeleting }),
  ], []);

  return (
    <AdminPage
      title={t("oportunidades.title")}
      count={list.count}
      search={{ value: list.search, onChange: list.setSearch }}
      actions={
        <button type="button" className="btn btn-primary" onClick={() => setEditing("new")}>
          <Plus size={16} aria-hidden="true" /> {t("oportunidades.add")}
        </button>
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
      {editing && (
        <OportunidadeDialog
          record={editing === "new" ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={(saved) => list.upsert({ ...saved, ticketsCount: editing === "new" ? 0 : editing.ticketsCount })}
        />
      )}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(o) => !o && setDeleting(null)}
        onConfirm={() => deleting && deleteRow(list, `/oportunidade/${deleting.id}`, deleting.id, t("oportunidades.deleted"))}
      />
    </AdminPage>
  );
}

/** The form's values (OportunidadeInput). */
interface OportunidadeValues extends Record<string, unknown> {
  name: string;
}

/** Add or rename one opportunity. */
function OportunidadeDialog(
  { record, onClose, onSaved }: { record: OportunidadeRow | null; onClose: () => void; onSaved: (row: OportunidadeRow) => void },
) {
  const form = useSchemaForm<OportunidadeValues>({
    schema: "OportunidadeInput",
    initial: { name: record?.name ?? "" },
    onSubmit: async (v) => {
      const saved = record
        ? await api<OportunidadeRow>("PUT", `/oportunidade/${record.id}`, { name: v.name })
        : await api<OportunidadeRow>("POST", "/oportunidade", { name: v.name });
      onSaved(saved);
      showToast("success", t("oportunidades.saved"));
      onClose();
    },
  });
  return (
    <FormDialog open onOpenChange={(o) => !o && onClose()} title={t(record ? "oportunidades.edit" : "oportunidades.add")} form={form} testId="oportunidade-save">
      <TextField form={form} name="name" label={t("oportunidades.name")} autoFocus className="form-full" />
    </FormDialog>
  );
}
