/**
 * The contacts table's columns (spec 001 §2.14): picture (photo or initials), name, number,
 * wallet user, last interaction (the latest ticket's time), the active-status icon, and the
 * row actions. The spec's two admin-only actions are two buttons: "assign users" picks the
 * user whose wallet holds the contact (any user, or none), "add to wallet" puts it in the
 * viewer's own wallet in one click (disabled when it is there already). Delete is offered to
 * whoever may delete.
 */
import { Ban, CircleCheck, Lock, LockOpen, MessageSquare, Pencil, Trash2, UserRoundPlus, WalletCards } from "lucide-react";
import { listTime } from "../lib/format.ts";
import { t } from "../lib/i18n.ts";
import { IconButton } from "../ui/AdminPage.tsx";
import type { ColumnDef } from "../ui/DataTable.tsx";
import { initials } from "../tickets/initials.ts";
import type { ContactRow } from "./types.ts";

/** What the columns need from the page. */
export interface ContactColumnsOptions {
  /** contacts-page:assignUsers. */
  assign: boolean;
  /** The viewer's user id (whose wallet "add to wallet" fills). */
  viewerId: number | null;
  /** contacts-page:deleteContact. */
  remove: boolean;
  /** User names by id, for the wallet column (live events carry only the id). */
  users: ReadonlyMap<number, string>;
  onOpenTicket: (row: ContactRow) => void;
  onEdit: (row: ContactRow) => void;
  /** Opens the user choice for the row's wallet. */
  onAssign: (row: ContactRow) => void;
  /** Puts the row in the viewer's wallet. */
  onAddToMyWallet: (row: ContactRow) => void;
  onToggleBlock: (row: ContactRow) => void;
  onDelete: (row: ContactRow) => void;
}

/** The wallet owner's name of a row, if any. */
function walletName(row: ContactRow, users: ReadonlyMap<number, string>): string {
  if (row.walleteUserId === null) return "";
  return users.get(row.walleteUserId) ?? (row.walleteUser?.id === row.walleteUserId ? row.walleteUser.name : "");
}

/** The column list of the contacts table. */
export function contactColumns(o: ContactColumnsOptions): ColumnDef<ContactRow, unknown>[] {
  return [
    {
      id: "picture",
      header: () => <span className="sr-only">{t("contacts.colPicture")}</span>,
      enableSorting: false,
      enableHiding: false,
      meta: { className: "col-picture" },
      cell: ({ row }) => (
        <span className="avatar contact-avatar" aria-hidden="true">
          {row.original.profilePicUrl ? <img src={row.original.profilePicUrl} alt="" loading="lazy" /> : initials(row.original.name)}
        </span>
      ),
    },
    { accessorKey: "name", header: t("contacts.colName"), meta: { className: "col-name" } },
    { accessorKey: "number", header: t("contacts.colNumber") },
    {
      id: "wallet",
      header: t("contacts.colWallet"),
      accessorFn: (row) => walletName(row, o.users),
    },
    {
      id: "lastInteraction",
      header: t("contacts.colLastInteraction"),
      accessorFn: (row) => Number(new Date(row.tickets?.[0]?.updatedAt ?? 0)),
      cell: ({ row }) => <span suppressHydrationWarning>{listTime(row.original.tickets?.[0]?.updatedAt)}</span>,
    },
    {
      accessorKey: "active",
      header: t("contacts.colStatus"),
      meta: { className: "col-center" },
      cell: ({ row }) =>
        row.original.active
          ? <CircleCheck size={18} className="tone-success" role="img" aria-label={t("contacts.active")} />
          : <Ban size={18} className="tone-danger" role="img" aria-label={t("contacts.blocked")} />,
    },
    {
      id: "actions",
      header: () => <span className="sr-only">{t("common.actions")}</span>,
      enableSorting: false,
      enableHiding: false,
      meta: { className: "col-actions" },
      cell: ({ row }) => {
        const c = row.original;
        return (
          <span className="cell-actions">
            <IconButton label={t("contacts.openTicket")} onClick={() => o.onOpenTicket(c)}><MessageSquare size={16} /></IconButton>
            <IconButton label={t("common.edit")} onClick={() => o.onEdit(c)}><Pencil size={16} /></IconButton>
            {o.assign && <IconButton label={t("contacts.assignUser")} onClick={() => o.onAssign(c)}><UserRoundPlus size={16} /></IconButton>}
            {o.assign && (
              <IconButton
                label={t(c.walleteUserId !== null && c.walleteUserId === o.viewerId ? "contacts.inMyWallet" : "contacts.addToMyWallet")}
                disabled={c.walleteUserId !== null && c.walleteUserId === o.viewerId}
                onClick={() => o.onAddToMyWallet(c)}
              >
                <WalletCards size={16} />
              </IconButton>
            )}
            <IconButton label={t(c.active ? "contacts.block" : "contacts.unblock")} onClick={() => o.onToggleBlock(c)}>
              {c.active ? <Lock size={16} /> : <LockOpen size={16} />}
            </IconButton>
            {o.remove && <IconButton label={t("common.delete")} onClick={() => o.onDelete(c)} danger><Trash2 size={16} /></IconButton>}
          </span>
        );
      },
    },
  ];
}
