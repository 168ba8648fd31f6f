/**
 * The tags screen (spec 001 §2.16): search, a table sorted by id descending (id, the tag's
 * chip, kanban check, tickets count, actions), a dialog to add or edit (name 'Obrigatório' /
 * 'Mensagem muito curta', colour, kanban and its order), delete with the §8 confirmation.
 * Everyone may add a tag; the kanban option, edit and delete are for admin and supervisor
 * (the server enforces the same). Rows change live on `company-{id}-tag`.
 *
 * This is the reference admin page: a route that loads the first page on the server, a
 * column list, a schema-bound dialog and the live spec, all from islands/ui.
 */
import { useMemo } from "react";
import { get, query } from "./lib/api.ts";
import { t } from "./lib/i18n.ts";
import { allowed } from "./lib/session.ts";
import { AdminPage, type AdminPageProps, useViewer } from "./ui/AdminPage.tsx";
import { actionsColumn } from "./ui/row_actions.tsx";
import { ConfirmDialog } from "./ui/ConfirmDialog.tsx";
import { type ColumnDef, DataTable } from "./ui/DataTable.tsx";
import { CheckField, TextField } from "./ui/form.tsx";
import { AddButton, RecordDialog, type RecordDialogProps, useRecordDialogs, useRecordForm } from "./ui/record_dialogs.tsx";
import { usePagedList } from "./ui/use_paged_list.ts";
import { useLiveRows } from "./ui/use_live_rows.ts";
import { textColorOn } from "../domain/text_color.ts";

/** A tag row as GET /tags/ answers it. */
export interface TagRow {
  id: number;
  name: string;
  color: string;
  kanban: number;
  order: number;
  ticketsCount?: number;
}

/** GET /tags/ body. */
interface TagsResponse {
  tags: TagRow[];
  count: number;
  hasMore: boolean;
}

/** Props of the TagsPage island. */
export type TagsPageProps = AdminPageProps<TagsResponse>;

const rowId = (tag: TagRow) => tag.id;

/** The tags page. */
export default function TagsPage({ initial, viewer: serverViewer }: TagsPageProps) {
  const viewer = useViewer(serverViewer);
  const manager = viewer ? allowed(viewer, "tags:manage") : false;
  const list = usePagedList<TagRow>({
    initial: initial && { rows: initial.tags, hasMore: initial.hasMore, count: initial.count },
    fetchPage: async (pageNumber, searchParam) => {
      const r = await get<TagsResponse>(`/tags/${query({ searchParam, pageNumber })}`);
      return { rows: r.tags, hasMore: r.hasMore, count: r.count };
    },
    rowId,
  });
  useLiveRows(viewer, list, { suffix: "tag", record: "tag", idKey: "tagId" });
  const dialogs = useRecordDialogs(list, {
    path: "/tags",
    deletedText: t("tags.deleted"),
    // The answer lacks the count: a new tag has no tickets, an edited one keeps its own.
    merge: (saved, before) => ({ ...saved, ticketsCount: before?.ticketsCount ?? 0 }),
  });

  const columns = useMemo<ColumnDef<TagRow, unknown>[]>(() => [
    { accessorKey: "id", header: t("tags.colId") },
    {
      accessorKey: "name",
      header: t("tags.colName"),
      cell: ({ row }) => <span className="chip" style={{ background: row.original.color, color: textColorOn(row.original.color) }}>{row.original.name}</span>,
    },
    {
      accessorKey: "kanban",
      header: t("tags.colKanban"),
      meta: { className: "col-center" },
      cell: ({ row }) => <input type="checkbox" checked={row.original.kanban === 1} readOnly disabled aria-label={t("tags.colKanban")} />,
    },
    { accessorKey: "ticketsCount", header: t("tags.colTickets"), meta: { className: "col-center" }, cell: ({ getValue }) => getValue() ?? 0 },
    actionsColumn<TagRow>({ onEdit: manager ? dialogs.edit : undefined, onDelete: manager ? dialogs.askDelete : undefined }),
  ], [manager]);

  return (
    <AdminPage
      title={t("tags.title")}
      search={{ value: list.search, onChange: list.setSearch }}
      actions={
        <AddButton label={t("tags.add")} onClick={dialogs.add} />
      }
      testId="tags-page"
    >
      <DataTable
        list={list}
        columns={columns}
        rowId={rowId}
        label={t("tags.title")}
        emptyText={t("tags.empty")}
        initialSorting={[{ id: "id", desc: true }]}
        testId="tags-table"
      />
      {dialogs.editing && <TagDialog row={dialogs.row} manager={manager} onClose={dialogs.close} onSaved={dialogs.saved} />}
      <ConfirmDialog {...dialogs.confirmDelete} />
    </AdminPage>
  );
}

/** The form's values (TagInput's fields; kanban as a checkbox). */
interface TagValues extends Record<string, unknown> {
  name: string;
  color: string;
  kanban: boolean;
  order: string;
}

/** Add or edit one tag. */
function TagDialog({ row: tag, manager, onClose, onSaved }: RecordDialogProps<TagRow> & { manager: boolean }) {
  const form = useRecordForm<TagValues, TagRow>({
    schema: "TagInput",
    initial: { name: tag?.name ?? "", color: tag?.color ?? "#A4CCCC", kanban: tag?.kanban === 1, order: String(tag?.order ?? 0) },
    path: "/tags",
    row: tag,
    body: (v) => ({ name: v.name, color: v.color, kanban: v.kanban ? 1 : 0, order: Number(v.order) || 0 }),
    savedText: t("tags.saved"),
    onSaved,
    onClose,
  });
  return (
    <RecordDialog form={form} title={t(tag ? "tags.edit" : "tags.add")} onClose={onClose} testId="tag-save">
      <TextField form={form} name="name" label={t("tags.name")} autoFocus />
      <div className="field">
        <label htmlFor="tag-color">{t("tags.color")}</label>
        <input
          id="tag-color"
          type="color"
          className="input input-color"
          value={form.values.color}
          onChange={(e) => form.set("color", e.target.value)}
          disabled={form.busy}
        />
      </div>
      {manager && <CheckField form={form} name="kanban" label={t("tags.kanban")} />}
      {manager && form.values.kanban && <TextField form={form} name="order" label={t("tags.order")} type="number" />}
    </RecordDialog>
  );
}
