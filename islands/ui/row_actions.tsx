/**
 * What every admin table repeats: the actions column (edit and delete icons, each shown only
 * when the page allows it for that row, plus page-specific buttons) and the delete that
 * removes the row from the list with a success toast, or toasts the failure (spec 001 §8).
 */
import type { ReactNode } from "react";
import { Pencil, Trash2 } from "lucide-react";
import type { ColumnDef } from "@tanstack/react-table";
import { api } from "../lib/api.ts";
import { t } from "../lib/i18n.ts";
import { showToast, toastError } from "../lib/toast.ts";
import { IconButton } from "./AdminPage.tsx";
import type { PagedList } from "./use_paged_list.ts";

/** The row actions of a table. */
export interface RowActions<T> {
  onEdit?: (row: T) => void;
  onDelete?: (row: T) => void;
  /** Whether this row shows the edit button (default: when onEdit is given). */
  canEdit?: (row: T) => boolean;
  /** Whether this row shows the delete button (default: when onDelete is given). */
  canDelete?: (row: T) => boolean;
  /** Buttons before edit and delete (e.g. open ticket, block). */
  extra?: (row: T) => ReactNode;
}

/** The last column of an admin table: its row's buttons. */
export function actionsColumn<T>(actions: RowActions<T>): ColumnDef<T, unknown> {
  const { onEdit, onDelete, canEdit = () => true, canDelete = () => true, extra } = actions;
  return {
    id: "actions",
    header: () => <span className="sr-only">{t("common.actions")}</span>,
    enableSorting: false,
    enableHiding: false,
    meta: { className: "col-actions" },
    cell: ({ row }) => (
      <span className="cell-actions">
        {extra?.(row.original)}
        {onEdit && canEdit(row.original) && (
          <IconButton label={t("common.edit")} onClick={() => onEdit(row.original)}><Pencil size={16} /></IconButton>
        )}
        {onDelete && canDelete(row.original) && (
          <IconButton label={t("common.delete")} onClick={() => onDelete(row.original)} danger><Trash2 size={16} /></IconButton>
        )}
      </span>
    ),
  };
}

/** DELETEs `path`, then drops row `id` from `list` and toasts `doneText`; a failure is toasted. */
export async function deleteRow<T>(list: PagedList<T>, path: string, id: string | number, doneText: string): Promise<boolean> {
  try {
    await api("DELETE", path);
    list.remove(id);
    showToast("success", doneText);
    return true;
  } catch (error) {
    toastError((error as { body?: unknown }).body ?? error);
    return false;
  }
}
