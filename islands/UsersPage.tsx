/**
 * The users screen (spec 001 §2.13): search, add, and a table of id, name (with the
 * '(SUPERUSER)' mark), e-mail, profile, queues ('Sem filas' when none), default connection
 * and the edit and delete actions; delete asks the §8 confirmation. Only whoever holds
 * `users:manage` (admins) sees add, edit and delete, as the server only lets them write; a
 * supervisor sees the list. Super users' rows are editable only by a super user, and no one
 * deletes their own user (the server refuses both).
 *
 * Rows change live on `company-{id}-user`; that event's user has ids where the list has
 * names, so the queue and connection lists read with the first page name them.
 */
import { useMemo } from "react";
import { get, query } from "./lib/api.ts";
import { t } from "./lib/i18n.ts";
import { allowed, type SessionUser } from "./lib/session.ts";
import { AdminPage, type AdminPageProps, useViewer } from "./ui/AdminPage.tsx";
import { actionsColumn } from "./ui/row_actions.tsx";
import { AddButton, useRecordDialogs } from "./ui/record_dialogs.tsx";
import { ConfirmDialog } from "./ui/ConfirmDialog.tsx";
import { type ColumnDef, DataTable } from "./ui/DataTable.tsx";
import { usePagedList } from "./ui/use_paged_list.ts";
import { useLiveRows } from "./ui/use_live_rows.ts";
import { UserDialog } from "./users/UserDialog.tsx";
import { type NamedRef, userRowFrom, type UserRow, type UsersResponse } from "./users/user_row.ts";
import { useNamedRefs } from "./users/use_named_refs.ts";

/** Props of the UsersPage island: the first page, and the queues and connections that name the rows' ids. */
export interface UsersPageProps extends AdminPageProps<UsersResponse> {
  /** The company's queues, or null when the server could not read them (then fetched here). */
  queues: NamedRef[] | null;
  /** The company's connections, or null likewise. */
  connections: NamedRef[] | null;
}

const rowId = (user: UserRow) => user.id;

/** The users page. */
export default function UsersPage({ initial, viewer: serverViewer, queues: serverQueues, connections: serverConnections }: UsersPageProps) {
  const viewer = useViewer(serverViewer);
  const manager = viewer ? allowed(viewer, "users:manage") : false;
  const queues = useNamedRefs(serverQueues, "/queue");
  const connections = useNamedRefs(serverConnections, "/whatsapp");
  const list = usePagedList<UserRow>({
    initial: initial && { rows: initial.users, hasMore: initial.hasMore, count: initial.count },
    fetchPage: async (pageNumber, searchParam) => {
      const r = await get<UsersResponse>(`/users/${query({ searchParam, pageNumber })}`);
      return { rows: r.users, hasMore: r.hasMore, count: r.count };
    },
    rowId,
  });
  useLiveRows(viewer, list, {
    suffix: "user",
    record: "user",
    idKey: "userId",
    toRow: (record) => userRowFrom(record, queues, connections),
  });
  const dialogs = useRecordDialogs(list, { path: "/users", deletedText: t("users.deleted") });

  const columns = useMemo(() => userColumns(viewer, manager, dialogs.edit, dialogs.askDelete), [viewer?.id, viewer?.super, manager]);

  return (
    <AdminPage
      title={t("users.title")}
      search={{ value: list.search, onChange: list.setSearch }}
      actions={manager && (
        <AddButton label={t("users.add")} onClick={dialogs.add} />
      )}
      testId="users-page"
    >
      <DataTable
        list={list}
        columns={columns}
        rowId={rowId}
        label={t("users.title")}
        emptyText={t("users.empty")}
        initialSorting={[{ id: "name", desc: false }]}
        testId="users-table"
      />
      {dialogs.editing && viewer && (
        <UserDialog
          row={dialogs.row}
          viewer={viewer}
          queues={queues}
          connections={connections}
          onClose={dialogs.close}
          onSaved={dialogs.saved}
        />
      )}
      <ConfirmDialog {...dialogs.confirmDelete} />
    </AdminPage>
  );
}

/** The table's columns; edit and delete only where the server would allow them. */
function userColumns(
  viewer: SessionUser | null,
  manager: boolean,
  edit: (user: UserRow) => void,
  remove: (user: UserRow) => void,
): ColumnDef<UserRow, unknown>[] {
  const reaches = (user: UserRow) => manager && (!user.super || viewer?.super === true);
  return [
    { accessorKey: "id", header: t("users.colId") },
    {
      accessorKey: "name",
      header: t("users.colName"),
      cell: ({ row }) => (
        <span className="user-name">
          {row.original.name}
          {row.original.super && <strong className="user-super">{t("users.superMark")}</strong>}
        </span>
      ),
    },
    { accessorKey: "email", header: t("users.colEmail"), meta: { className: "user-email" } },
    { accessorKey: "profile", header: t("users.colProfile"), cell: ({ row }) => t(`profile.${row.original.profile}`) },
    {
      id: "queues",
      header: t("users.colQueues"),
      accessorFn: (user) => user.queues.map((q) => q.name).join(", "),
      cell: ({ getValue }) => (getValue() as string) || <span className="muted">{t("users.noQueues")}</span>,
    },
    {
      id: "whatsapp",
      header: t("users.colWhatsapp"),
      accessorFn: (user) => user.whatsapp?.name ?? "",
      cell: ({ getValue }) => (getValue() as string) || <span className="muted">{t("users.noWhatsapp")}</span>,
    },
    actionsColumn<UserRow>({
      onEdit: edit,
      onDelete: remove,
      canEdit: reaches,
      canDelete: (user) => reaches(user) && user.id !== viewer?.id,
    }),
  ];
}
