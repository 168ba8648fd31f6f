/**
 * The wallet screen (spec 002 §2.13): the contacts assigned to a user, searchable, with
 * infinite scroll; each row starts a ticket with the contact (its open one, else a new one,
 * as the contacts screen does) or removes it from the wallet (PUT /contacts/{id} clearing
 * `walleteUserId`, after a confirmation). A user sees its own wallet; whoever holds
 * `wallet:fullUserList` (admin) picks any user's, or every wallet (the server enforces the
 * same on GET /wallets/contacts/). Rows follow `company-{id}-contact` live: a contact that
 * enters the wallet shown appears, one that leaves it disappears.
 */
import { useMemo, useRef, useState } from "react";
import { MessageSquare, UserMinus } from "lucide-react";
import { api, get, query } from "./lib/api.ts";
import { listTime } from "./lib/format.ts";
import { t } from "./lib/i18n.ts";
import { allowed } from "./lib/session.ts";
import { showToast, toastError } from "./lib/toast.ts";
import { AdminPage, type AdminPageProps, IconButton, useViewer } from "./ui/AdminPage.tsx";
import { ConfirmDialog } from "./ui/ConfirmDialog.tsx";
import { type ColumnDef, DataTable } from "./ui/DataTable.tsx";
import { usePagedList } from "./ui/use_paged_list.ts";
import { useLiveRows } from "./ui/use_live_rows.ts";
import { useOptions } from "./ui/use_options.ts";
import { ticketFor } from "./contacts/open_ticket.ts";
import type { ContactRow, ContactsResponse } from "./contacts/types.ts";

/** Props of the WalletsPage island. */
export type WalletsPageProps = AdminPageProps<ContactsResponse>;

const rowId = (contact: ContactRow) => contact.id;

/** The wallet page. */
export default function WalletsPage({ initial, viewer: serverViewer }: WalletsPageProps) {
  const viewer = useViewer(serverViewer);
  const full = viewer ? allowed(viewer, "wallet:fullUserList") : false;
  // Whose wallet: a user id, or null for every wallet (admin only). Read by fetchPage through
  // the ref, so a change reloads with the new owner at once.
  const [owner, setOwner] = useState<number | null>(null);
  const ownerRef = useRef(owner);
  const list = usePagedList<ContactRow>({
    initial: initial && { rows: initial.contacts, hasMore: initial.hasMore, count: initial.count },
    fetchPage: async (pageNumber, searchParam) => {
      const userId = ownerRef.current ?? undefined;
      const r = await get<ContactsResponse>(`/wallets/contacts/${query({ searchParam, pageNumber, userId })}`);
      return { rows: r.contacts, hasMore: r.hasMore, count: r.count };
    },
    rowId,
  });
  const shows = (walleteUserId: unknown) =>
    walleteUserId !== null && walleteUserId !== undefined &&
    (full ? ownerRef.current === null || walleteUserId === ownerRef.current : walleteUserId === viewer?.id);
  useLiveRows(viewer, list, {
    suffix: "contact",
    record: "contact",
    idKey: "contactId",
    toRow: (record, current) => {
      if (shows(record.walleteUserId)) return record as unknown as ContactRow;
      // Left the wallet shown (or never in it): drop the row if the list holds it.
      if (current) list.remove(current.id);
      return null;
    },
  });
  const users = useOptions(full ? "/users/list" : null);
  const names = useMemo(() => new Map(users.map((u) => [u.id, u.name])), [users]);
  const [removing, setRemoving] = useState<ContactRow | null>(null);

  function pick(value: string) {
    const next = value === "" ? null : Number(value);
    ownerRef.current = next;
    setOwner(next);
    list.reload();
  }

  async function startTicket(contact: ContactRow) {
    try {
      location.assign(`/tickets/${await ticketFor(viewer!, contact.id)}`);
    } catch (error) {
      toastError((error as { body?: unknown }).body ?? error);
    }
  }

  async function remove(contact: ContactRow) {
    try {
      await api("PUT", `/contacts/${contact.id}`, { walleteUserId: null });
      list.remove(contact.id);
      showToast("success", t("wallets.removed"));
    } catch (error) {
      toastError((error as { body?: unknown }).body ?? error);
    }
  }

  const columns = useMemo<ColumnDef<ContactRow, unknown>[]>(() => [
    { accessorKey: "name", header: t("wallets.colName"), meta: { className: "col-name" } },
    { accessorKey: "number", header: t("wallets.colNumber") },
    { accessorKey: "email", header: t("wallets.colEmail") },
    ...(full
      ? [{
        id: "owner",
        header: t("wallets.colOwner"),
        accessorFn: (row: ContactRow) => (row.walleteUserId === null ? "" : names.get(row.walleteUserId) ?? row.walleteUser?.name ?? ""),
      }]
      : []),
    {
      id: "lastInteraction",
      header: t("wallets.colLastInteraction"),
      accessorFn: (row) => Number(new Date(row.tickets?.[0]?.updatedAt ?? 0)),
      cell: ({ row }) => <span suppressHydrationWarning>{listTime(row.original.tickets?.[0]?.updatedAt)}</span>,
    },
    {
      id: "actions",
      header: () => <span className="sr-only">{t("common.actions")}</span>,
      enableSorting: false,
      enableHiding: false,
      meta: { className: "col-actions" },
      cell: ({ row }) => (
        <span className="cell-actions">
          <IconButton label={t("wallets.startTicket")} onClick={() => viewer && startTicket(row.original)}><MessageSquare size={16} /></IconButton>
          <IconButton label={t("wallets.remove")} onClick={() => setRemoving(row.original)} danger><UserMinus size={16} /></IconButton>
        </span>
      ),
    },
  ], [full, names, viewer]);

  return (
    <AdminPage
      title={t("wallets.title")}
      count={list.count}
      search={{ value: list.search, onChange: list.setSearch }}
      actions={full && (
        <label className="wallet-user">
          <span className="sr-only">{t("wallets.user")}</span>
          <select className="input" aria-label={t("wallets.user")} value={owner === null ? "" : String(owner)} onChange={(e) => pick(e.target.value)} data-testid="wallet-user">
            <option value="">{t("wallets.allUsers")}</option>
            {users.map((u) => <option key={u.id} value={String(u.id)}>{u.name}</option>)}
          </select>
        </label>
      )}
      testId="wallets-page"
    >
      <DataTable
        list={list}
        columns={columns}
        rowId={rowId}
        label={t("wallets.title")}
        emptyText={t("wallets.empty")}
        testId="wallets-table"
      />
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(o) => !o && setRemoving(null)}
        onConfirm={() => removing && remove(removing)}
        title={t("wallets.removeTitle")}
        text={t("wallets.removeText", { name: removing?.name ?? "" })}
      />
    </AdminPage>
  );
}
