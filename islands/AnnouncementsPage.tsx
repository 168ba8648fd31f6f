/**
 * The announcements page (spec 002 §2.7, super users only) on the admin kit: the first page
 * rendered on the server, search debounced 500 ms, pages loaded within 100 px of the bottom,
 * an add/edit dialog and a delete with confirmation; success toasts for save and delete.
 * The list reloads on every company-announcement event (the channel is platform-wide and
 * carries no record), so other tabs' changes show at once. Others get the server's gate.
 */
import { useEffect, useMemo, useState } from "react";
import { Plus } from "lucide-react";
import { ANNOUNCEMENT_CHANNEL } from "../domain/realtime.ts";
import { get, query } from "./lib/api.ts";
import { t } from "./lib/i18n.ts";
import { allowed } from "./lib/session.ts";
import { onChannel, startSocket } from "./lib/socket.ts";
import { AdminPage, type AdminPageProps, useViewer } from "./ui/AdminPage.tsx";
import { actionsColumn, deleteRow } from "./ui/row_actions.tsx";
import { ConfirmDialog } from "./ui/ConfirmDialog.tsx";
import { type ColumnDef, DataTable } from "./ui/DataTable.tsx";
import { usePagedList } from "./ui/use_paged_list.ts";
import { AnnouncementDialog, type AnnouncementRecord, PRIORITY_LABELS } from "./announcements/AnnouncementDialog.tsx";

/** GET /announcements/ body. */
interface AnnouncementsResponse {
  records: AnnouncementRecord[];
  hasMore: boolean;
}

/** Props of the AnnouncementsPage island. */
export type AnnouncementsPageProps = AdminPageProps<AnnouncementsResponse>;

const rowId = (a: AnnouncementRecord) => a.id;

function priorityLabel(priority: number): string {
  return t(PRIORITY_LABELS[priority as keyof typeof PRIORITY_LABELS] ?? PRIORITY_LABELS[3]);
}

/** The announcements page. */
export default function AnnouncementsPage({ initial, viewer: serverViewer }: AnnouncementsPageProps) {
  const viewer = useViewer(serverViewer);
  const list = usePagedList<AnnouncementRecord>({
    initial: initial && { rows: initial.records, hasMore: initial.hasMore },
    fetchPage: async (pageNumber, searchParam) => {
      const r = await get<AnnouncementsResponse>(`/announcements/${query({ searchParam, pageNumber })}`);
      return { rows: r.records, hasMore: r.hasMore };
    },
    rowId,
  });
  const [editing, setEditing] = useState<{ record: AnnouncementRecord | null } | null>(null);
  const [deleting, setDeleting] = useState<AnnouncementRecord | null>(null);

  useEffect(() => {
    if (!viewer) return;
    startSocket(viewer.companyId, viewer.id);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const off = onChannel(ANNOUNCEMENT_CHANNEL, () => {
      clearTimeout(timer);
      timer = setTimeout(list.reload, 300);
    });
    return () => {
      clearTimeout(timer);
      off();
    };
  }, [viewer?.id]);

  const columns = useMemo<ColumnDef<AnnouncementRecord, unknown>[]>(() => [
    {
      accessorKey: "title",
      header: t("announcements.colTitle"),
      cell: ({ row }) => <span className={`announcement priority-${row.original.priority}`}>{row.original.title}</span>,
    },
    { accessorKey: "priority", header: t("announcements.colPriority"), cell: ({ row }) => priorityLabel(row.original.priority) },
    {
      accessorKey: "status",
      header: t("announcements.colStatus"),
      cell: ({ row }) => t(row.original.status ? "announcements.active" : "announcements.inactive"),
    },
    { accessorKey: "mediaName", header: t("announcements.colMedia"), cell: ({ row }) => row.original.mediaName ?? "—" },
    actionsColumn<AnnouncementRecord>({ onEdit: (record) => setEditing({ record }), onDelete: setDeleting }),
  ], []);

  if (viewer && !allowed(viewer, "super:announcements")) return null;
  return (
    <AdminPage
      title={t("announcements.title")}
      search={{ value: list.search, onChange: list.setSearch }}
      actions={
        <button type="button" className="btn btn-primary" onClick={() => setEditing({ record: null })}>
          <Plus size={16} aria-hidden="true" /> {t("announcements.new")}
        </button>
      }
    >
      <DataTable
        list={list}
        columns={columns}
        rowId={rowId}
        label={t("announcements.title")}
        emptyText={t("announcements.empty")}
        rowTestId="announcement-row"
      />
      <AnnouncementDialog
        open={editing !== null}
        onOpenChange={(open) => !open && setEditing(null)}
        record={editing?.record ?? null}
        onSaved={list.reload}
      />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={t("announcements.deleteTitle")}
        text={t("announcements.deleteConfirm", { title: deleting?.title ?? "" })}
        onConfirm={() => deleting && deleteRow(list, `/announcements/${deleting.id}`, deleting.id, t("announcements.deleted"))}
      />
    </AdminPage>
  );
}
