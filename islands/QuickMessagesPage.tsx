/**
 * The quick messages screen (spec 001 §2.18): search, a table of shortcode (with the start of
 * the message), the media name or 'Sem anexo', the general check and actions; a dialog to add
 * or edit (./quick_messages/QuickMessageDialog.tsx); delete with the §8 confirmation.
 * Permissions (§6): admin and supervisor change any reply and set `geral`; a plain user
 * changes only its own non-general ones, so the buttons are hidden elsewhere (the server
 * refuses too). Rows change live on `company-{id}-quickmessage`.
 */
import { useMemo } from "react";
import { Paperclip } from "lucide-react";
import { canChangeQuickMessage } from "../domain/quick_message.ts";
import { get, query } from "./lib/api.ts";
import { t } from "./lib/i18n.ts";
import { allowed } from "./lib/session.ts";
import { AdminPage, type AdminPageProps, useViewer } from "./ui/AdminPage.tsx";
import { actionsColumn } from "./ui/row_actions.tsx";
import { AddButton, useRecordDialogs } from "./ui/record_dialogs.tsx";
import { ConfirmDialog } from "./ui/ConfirmDialog.tsx";
import { type ColumnDef, DataTable } from "./ui/DataTable.tsx";
import { usePagedList } from "./ui/use_paged_list.ts";
import { useLiveRows } from "./ui/use_live_rows.ts";
import { QuickMessageDialog, type QuickMessageRow } from "./quick_messages/QuickMessageDialog.tsx";

/** GET /quick-messages/ body. */
interface QuickMessagesResponse {
  records: QuickMessageRow[];
  count: number;
  hasMore: boolean;
}

/** Props of the QuickMessagesPage island. */
export type QuickMessagesPageProps = AdminPageProps<QuickMessagesResponse>;

const rowId = (q: QuickMessageRow) => q.id;

/** The quick messages page. */
export default function QuickMessagesPage({ initial, viewer: serverViewer }: QuickMessagesPageProps) {
  const viewer = useViewer(serverViewer);
  const manageAll = viewer ? allowed(viewer, "quick-messages:manageAll") : false;
  const list = usePagedList<QuickMessageRow>({
    initial: initial && { rows: initial.records, hasMore: initial.hasMore, count: initial.count },
    fetchPage: async (pageNumber, searchParam) => {
      const r = await get<QuickMessagesResponse>(`/quick-messages/${query({ searchParam, pageNumber })}`);
      return { rows: r.records, hasMore: r.hasMore, count: r.count };
    },
    rowId,
  });
  useLiveRows(viewer, list, { suffix: "quickmessage", record: "record", idKey: "id" });
  const dialogs = useRecordDialogs(list, { path: "/quick-messages", deletedText: t("quickMessages.deleted") });
  const who = viewer && { id: viewer.id, manageAll };

  const columns = useMemo<ColumnDef<QuickMessageRow, unknown>[]>(() => [
    {
      accessorKey: "shortcode",
      header: t("quickMessages.colShortcode"),
      cell: ({ row }) => (
        <span className="qm-shortcode">
          <strong>/{row.original.shortcode}</strong>
          {row.original.message && <span className="qm-preview">{row.original.message}</span>}
        </span>
      ),
    },
    {
      accessorKey: "mediaName",
      header: t("quickMessages.colMedia"),
      cell: ({ row }) =>
        row.original.mediaName
          ? <span className="qm-media"><Paperclip size={14} aria-hidden="true" /> {row.original.mediaName}</span>
          : <span className="qm-no-media">{t("quickMessages.noMedia")}</span>,
    },
    {
      accessorKey: "geral",
      header: t("quickMessages.colGeral"),
      meta: { className: "col-center" },
      cell: ({ row }) => <input type="checkbox" checked={row.original.geral} readOnly disabled aria-label={t("quickMessages.colGeral")} />,
    },
    actionsColumn<QuickMessageRow>({
      onEdit: dialogs.edit,
      onDelete: dialogs.askDelete,
      canEdit: (q) => !!who && canChangeQuickMessage(who, q),
      canDelete: (q) => !!who && canChangeQuickMessage(who, q),
    }),
  ], [who?.id, manageAll]);

  return (
    <AdminPage
      title={t("quickMessages.title")}
      search={{ value: list.search, onChange: list.setSearch }}
      actions={
        <AddButton label={t("quickMessages.add")} onClick={dialogs.add} />
      }
      testId="quick-messages-page"
    >
      <div className="qm-table">
        <DataTable
          list={list}
          columns={columns}
          rowId={rowId}
          label={t("quickMessages.title")}
          emptyText={t("quickMessages.empty")}
          initialSorting={[{ id: "shortcode", desc: false }]}
          testId="quick-messages-table"
        />
      </div>
      {dialogs.editing && (
        <QuickMessageDialog row={dialogs.row} manageAll={manageAll} onClose={dialogs.close} onSaved={dialogs.saved} />
      )}
      <ConfirmDialog {...dialogs.confirmDelete} />
    </AdminPage>
  );
}
