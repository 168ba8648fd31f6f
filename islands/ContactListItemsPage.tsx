/**
 * A contact list's contacts (issue #19; /contact-lists/{id}/contacts): search, an
 * infinite-scroll table (name, number, e-mail, WhatsApp as an icon: checked, without WhatsApp,
 * or still being checked), add/edit/delete, import a .csv/.xlsx, add the contacts of tagged
 * tickets, and pick existing contacts (contact_lists/ContactsPicker.tsx). Rows change live on `company-{id}-ContactListItem` (the checker's results arrive so).
 */
import { useMemo, useState } from "react";
import {
  ArrowLeft,
  CircleCheck,
  CircleX,
  FileUp,
  Hourglass,
  Tags,
  Users,
} from "lucide-react";
import { api, get, query } from "./lib/api.ts";
import { t } from "./lib/i18n.ts";
import { showToast } from "./lib/toast.ts";
import { AdminPage, type AdminPageProps, useViewer } from "./ui/AdminPage.tsx";
import { actionsColumn } from "./ui/row_actions.tsx";
import { ConfirmDialog } from "./ui/ConfirmDialog.tsx";
import { type ColumnDef, DataTable } from "./ui/DataTable.tsx";
import {
  CheckListField,
  FormDialog,
  TextField,
  useSchemaForm,
} from "./ui/form.tsx";
import { AddButton, RecordDialog, type RecordDialogProps, useRecordDialogs, useRecordForm } from "./ui/record_dialogs.tsx";
import { usePagedList } from "./ui/use_paged_list.ts";
import { useLiveRows } from "./ui/use_live_rows.ts";
import { useOptions } from "./ui/use_options.ts";
import { importIntoList } from "./contact_lists/upload.ts";
import { ContactsPicker } from "./contact_lists/ContactsPicker.tsx";

/** An item row as GET /contact-list-items answers it. */
export interface ListItemRow {
  id: number;
  contactListId: number;
  name: string;
  number: string;
  email: string | null;
  isWhatsappValid: boolean | null;
}

interface ItemsResponse {
  records: ListItemRow[];
  count: number;
  hasMore: boolean;
}

/** Props of the ContactListItemsPage island. */
export type ContactListItemsPageProps = AdminPageProps<ItemsResponse> & {
  contactListId: number;
  listName: string | null;
};

const rowId = (r: ListItemRow) => r.id;

function WhatsappIcon({ valid }: { valid: boolean | null }) {
  if (valid === null) {
    return (
      <Hourglass
        size={16}
        className="text-muted"
        aria-label={t("contactListItems.checking")}
        role="img"
      />
    );
  }
  return valid
    ? (
      <CircleCheck
        size={16}
        className="text-success"
        aria-label={t("contactListItems.valid")}
        role="img"
      />
    )
    : (
      <CircleX
        size={16}
        className="text-danger"
        aria-label={t("contactListItems.invalid")}
        role="img"
      />
    );
}

/** The list items page. */
export default function ContactListItemsPage(
  { initial, viewer: serverViewer, contactListId, listName }:
    ContactListItemsPageProps,
) {
  const viewer = useViewer(serverViewer);
  const list = usePagedList<ListItemRow>({
    initial: initial &&
      { rows: initial.records, hasMore: initial.hasMore, count: initial.count },
    fetchPage: async (pageNumber, searchParam) => {
      const r = await get<ItemsResponse>(
        `/contact-list-items${
          query({ contactListId, searchParam, pageNumber })
        }`,
      );
      return { rows: r.records, hasMore: r.hasMore, count: r.count };
    },
    rowId,
  });
  useLiveRows(viewer, list, {
    suffix: "ContactListItem",
    record: "record",
    idKey: "id",
    toRow: (
      record,
    ) => ((record as unknown as ListItemRow).contactListId === contactListId
      ? record as unknown as ListItemRow
      : null),
  });
  const dialogs = useRecordDialogs(list, { path: "/contact-list-items", deletedText: t("contactListItems.deleted") });
  const [fromTags, setFromTags] = useState(false);
  const [fromContacts, setFromContacts] = useState(false);

  const columns = useMemo<ColumnDef<ListItemRow, unknown>[]>(() => [
    { accessorKey: "name", header: t("contactListItems.colName") },
    { accessorKey: "number", header: t("contactListItems.colNumber") },
    {
      accessorKey: "email",
      header: t("contactListItems.colEmail"),
      cell: ({ getValue }) => getValue() ?? "",
    },
    {
      accessorKey: "isWhatsappValid",
      header: t("contactListItems.colWhatsapp"),
      meta: { className: "col-center" },
      cell: ({ row }) => <WhatsappIcon valid={row.original.isWhatsappValid} />,
    },
    actionsColumn<ListItemRow>({ onEdit: dialogs.edit, onDelete: dialogs.askDelete }),
  ], []);

  return (
    <AdminPage
      title={t("contactListItems.title", {
        name: listName ?? String(contactListId),
      })}
      search={{ value: list.search, onChange: list.setSearch }}
      actions={
        <>
          <a className="btn" href="/contact-lists">
            <ArrowLeft size={16} aria-hidden="true" />{" "}
            {t("contactListItems.back")}
          </a>
          <button
            type="button"
            className="btn"
            onClick={() =>
              importIntoList(contactListId).then((ok) => {
                if (ok) list.reload();
              })}
          >
            <FileUp size={16} aria-hidden="true" /> {t("contactLists.import")}
          </button>
          <button
            type="button"
            className="btn"
            onClick={() => setFromTags(true)}
          >
            <Tags size={16} aria-hidden="true" />{" "}
            {t("contactListItems.fromTags")}
          </button>
          <button
            type="button"
            className="btn"
            onClick={() => setFromContacts(true)}
          >
            <Users size={16} aria-hidden="true" />{" "}
            {t("contactListItems.fromContacts")}
          </button>
          <AddButton label={t("contactListItems.add")} onClick={dialogs.add} />
        </>
      }
      testId="contact-list-items-page"
    >
      <DataTable
        list={list}
        columns={columns}
        rowId={rowId}
        label={t("contactListItems.colName")}
        emptyText={t("contactListItems.empty")}
        testId="contact-list-items-table"
      />
      {dialogs.editing && (
        <ItemDialog row={dialogs.row} contactListId={contactListId} onClose={dialogs.close} onSaved={dialogs.saved} />
      )}
      {fromTags && (
        <FromTagsDialog
          contactListId={contactListId}
          onClose={() => setFromTags(false)}
          onDone={() => list.reload()}
        />
      )}
      {fromContacts && (
        <ContactsPicker
          contactListId={contactListId}
          onClose={() => setFromContacts(false)}
          onDone={() => list.reload()}
        />
      )}
      <ConfirmDialog {...dialogs.confirmDelete} />
    </AdminPage>
  );
}

interface ItemValues extends Record<string, unknown> {
  contactListId: number;
  name: string;
  number: string;
  email: string;
}

/** Add or edit one contact of the list. */
function ItemDialog(
  { row, contactListId, onClose, onSaved }: RecordDialogProps<ListItemRow> & { contactListId: number },
) {
  const form = useRecordForm<ItemValues, ListItemRow>({
    schema: "ContactListItemInput",
    initial: {
      contactListId,
      name: row?.name ?? "",
      number: row?.number ?? "",
      email: row?.email ?? "",
    },
    path: "/contact-list-items",
    row,
    body: (v) => ({ contactListId, name: v.name, number: v.number, email: v.email }),
    savedText: t("contactListItems.saved"),
    onSaved,
    onClose,
  });
  return (
    <RecordDialog
      form={form}
      title={t(row ? "contactListItems.edit" : "contactListItems.add")}
      onClose={onClose}
      testId="contact-list-item-save"
    >
      <TextField
        form={form}
        name="name"
        label={t("contactListItems.colName")}
        autoFocus
      />
      <TextField
        form={form}
        name="number"
        label={t("contactListItems.colNumber")}
      />
      <TextField
        form={form}
        name="email"
        label={t("contactListItems.colEmail")}
        type="email"
      />
    </RecordDialog>
  );
}

interface TagValues extends Record<string, unknown> {
  tags: number[];
}

/** Adds the contacts of tickets carrying the chosen tags. */
function FromTagsDialog(
  { contactListId, onClose, onDone }: {
    contactListId: number;
    onClose: () => void;
    onDone: () => void;
  },
) {
  const tags = useOptions("/tags/list");
  const form = useSchemaForm<TagValues>({
    schema: "AddFromTags",
    initial: { tags: [] },
    onSubmit: async (v) => {
      const r = await api<{ created: number; duplicated: number }>(
        "POST",
        `/contact-lists/${contactListId}/add-tags`,
        { tags: v.tags },
      );
      showToast(
        "success",
        t("contactListItems.added", {
          created: r.created,
          duplicated: r.duplicated,
        }),
      );
      onDone();
      onClose();
    },
  });
  return (
    <FormDialog
      open
      onOpenChange={(o) => !o && onClose()}
      title={t("contactListItems.fromTags")}
      form={form}
      testId="contact-list-tags-save"
    >
      <CheckListField
        form={form}
        name="tags"
        label={t("contactListItems.tags")}
        options={tags.map((o) => ({ value: o.id, label: o.name }))}
      />
    </FormDialog>
  );
}
