/**
 * The contact lists screen (issue #19; spec 002 §2.6): search, an infinite-scroll table (name,
 * contacts, still being checked, without WhatsApp, actions), add/rename in a dialog, delete with
 * confirmation, import a .csv/.xlsx into a list, and a link to the list's contacts page. Rows
 * change live on `company-{id}-ContactList`; the counts are re-read when items change.
 */
import { useEffect, useMemo } from "react";
import { FileUp, Users } from "lucide-react";
import { get, query } from "./lib/api.ts";
import { t } from "./lib/i18n.ts";
import { onChannel } from "./lib/socket.ts";
import {
  AdminPage,
  type AdminPageProps,
  IconButton,
  useViewer,
} from "./ui/AdminPage.tsx";
import { actionsColumn } from "./ui/row_actions.tsx";
import { ConfirmDialog } from "./ui/ConfirmDialog.tsx";
import { type ColumnDef, DataTable } from "./ui/DataTable.tsx";
import { TextField } from "./ui/form.tsx";
import { AddButton, RecordDialog, type RecordDialogProps, useRecordDialogs, useRecordForm } from "./ui/record_dialogs.tsx";
import { usePagedList } from "./ui/use_paged_list.ts";
import { useLiveRows } from "./ui/use_live_rows.ts";
import { importIntoList } from "./contact_lists/upload.ts";

/** A list row as GET /contact-lists answers it. */
export interface ContactListRow {
  id: number;
  name: string;
  contactsCount?: number;
  pendingCount?: number;
  invalidCount?: number;
}

interface ListsResponse {
  records: ContactListRow[];
  count: number;
  hasMore: boolean;
}

/** Props of the ContactListsPage island. */
export type ContactListsPageProps = AdminPageProps<ListsResponse>;

const rowId = (r: ContactListRow) => r.id;

/** The contact lists page. */
export default function ContactListsPage(
  { initial, viewer: serverViewer }: ContactListsPageProps,
) {
  const viewer = useViewer(serverViewer);
  const list = usePagedList<ContactListRow>({
    initial: initial &&
      { rows: initial.records, hasMore: initial.hasMore, count: initial.count },
    fetchPage: async (pageNumber, searchParam) => {
      const r = await get<ListsResponse>(
        `/contact-lists${query({ searchParam, pageNumber })}`,
      );
      return { rows: r.records, hasMore: r.hasMore, count: r.count };
    },
    rowId,
  });
  useLiveRows(viewer, list, {
    suffix: "ContactList",
    record: "record",
    idKey: "id",
    // An update event carries the list without its counts: keep the ones shown.
    toRow: (record, current) => ({
      ...current,
      ...(record as unknown as ContactListRow),
    }),
  });
  // Item changes (imports, checks) move the counts: re-read the shown rows, at most every 2 s.
  useEffect(() => {
    if (!viewer) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const off = onChannel(`company-${viewer.companyId}-ContactListItem`, () => {
      timer ??= setTimeout(() => {
        timer = undefined;
        list.reload();
      }, 2000);
    });
    return () => {
      off();
      clearTimeout(timer);
    };
  }, [viewer?.companyId]);
  const dialogs = useRecordDialogs(list, { path: "/contact-lists", deletedText: t("contactLists.deleted") });

  const columns = useMemo<ColumnDef<ContactListRow, unknown>[]>(() => [
    {
      accessorKey: "name",
      header: t("contactLists.colName"),
      cell: ({ row }) => (
        <a href={`/contact-lists/${row.original.id}/contacts`}>
          {row.original.name}
        </a>
      ),
    },
    {
      accessorKey: "contactsCount",
      header: t("contactLists.colContacts"),
      meta: { className: "col-center" },
      cell: ({ getValue }) => getValue() ?? 0,
    },
    {
      accessorKey: "pendingCount",
      header: t("contactLists.colPending"),
      meta: { className: "col-center" },
      cell: ({ getValue }) => getValue() ?? 0,
    },
    {
      accessorKey: "invalidCount",
      header: t("contactLists.colInvalid"),
      meta: { className: "col-center" },
      cell: ({ getValue }) => getValue() ?? 0,
    },
    actionsColumn<ContactListRow>({
      onEdit: dialogs.edit,
      onDelete: dialogs.askDelete,
      extra: (row) => (
        <>
          <IconButton
            label={t("contactLists.import")}
            onClick={() =>
              importIntoList(row.id).then((ok) => {
                if (ok) list.reload();
              })}
          >
            <FileUp size={16} />
          </IconButton>
          <IconButton
            label={t("contactLists.openContacts")}
            onClick={() => location.assign(`/contact-lists/${row.id}/contacts`)}
          >
            <Users size={16} />
          </IconButton>
        </>
      ),
    }),
  ], []);

  return (
    <AdminPage
      title={t("contactLists.title")}
      search={{ value: list.search, onChange: list.setSearch }}
      actions={
        <AddButton label={t("contactLists.add")} onClick={dialogs.add} />
      }
      testId="contact-lists-page"
    >
      <DataTable
        list={list}
        columns={columns}
        rowId={rowId}
        label={t("contactLists.title")}
        emptyText={t("contactLists.empty")}
        testId="contact-lists-table"
      />
      {dialogs.editing && <ListDialog row={dialogs.row} onClose={dialogs.close} onSaved={dialogs.saved} />}
      <ConfirmDialog {...dialogs.confirmDelete} />
    </AdminPage>
  );
}

interface ListValues extends Record<string, unknown> {
  name: string;
}

/** Add or rename a list. */
function ListDialog({ row, onClose, onSaved }: RecordDialogProps<ContactListRow>) {
  const form = useRecordForm<ListValues, ContactListRow>({
    schema: "ContactListInput",
    initial: { name: row?.name ?? "" },
    path: "/contact-lists",
    row,
    body: (v) => ({ name: v.name }),
    savedText: t("contactLists.saved"),
    onSaved,
    onClose,
  });
  return (
    <RecordDialog form={form} title={t(row ? "contactLists.edit" : "contactLists.add")} onClose={onClose} testId="contact-list-save">
      <TextField
        form={form}
        name="name"
        label={t("contactLists.name")}
        autoFocus
      />
    </RecordDialog>
  );
}
