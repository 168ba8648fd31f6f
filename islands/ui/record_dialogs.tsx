/**
 * What the admin pages' create-or-edit dialogs share (issue #39). A page lists records in a
 * live table (use_paged_list.ts), opens one dialog to add a record or edit a row, and asks
 * before deleting one; the dialog is a schema form (form.tsx) that POSTs a new record to the
 * collection's path or PUTs an edited one at `{path}/{id}`, toasts, hands the saved record to
 * the page and closes, and the page puts it into its live list.
 *
 * - `useRecordDialogs` and `AddButton` (the page): which row the dialog is open on, which one
 *   is asked to be deleted, the saved record into the list, the confirmed delete
 *   (row_actions.tsx deleteRow), and the header's button that opens the dialog on a new record.
 * - `useRecordForm` and `RecordDialog` (the dialog): the form whose submit saves the record,
 *   and the form dialog that closes through the page.
 * - `saveRecord`: the save alone, for a dialog whose submit does more (an upload between two
 *   saves, a dialog that stays open on a new record).
 */
import type { ReactNode } from "react";
import { useCallback, useState } from "react";
import { Plus } from "lucide-react";
import { api } from "../lib/api.ts";
import { showToast } from "../lib/toast.ts";
import type { ConfirmDialogProps } from "./ConfirmDialog.tsx";
import { FormDialog, type FormOptions, type SchemaForm, useSchemaForm } from "./form.tsx";
import { deleteRow } from "./row_actions.tsx";
import type { PagedList } from "./use_paged_list.ts";

/** A record the API addresses by id. */
type Identified = { id: number | string };

/** PUT `{path}/{row.id}` when `row` is a record, else POST `path`; resolves with the record as saved. */
export function saveRecord<T>(path: string, row: Identified | null, body: unknown): Promise<T> {
  return row ? api<T>("PUT", `${path}/${row.id}`, body) : api<T>("POST", path, body);
}

/** The page's side of its dialogs. */
export interface RecordDialogs<T> {
  /** The row the dialog is open on, "new" for a new record, null when it is closed. */
  editing: T | "new" | null;
  /** `editing` as the dialog takes it: the row, or null for a new record. */
  row: T | null;
  add: () => void;
  edit: (row: T) => void;
  close: () => void;
  /** The dialog saved `record`: it goes into the list, replacing the row of its id. */
  saved: (record: T) => void;
  askDelete: (row: T) => void;
  /** The page's ConfirmDialog: open while a delete is asked; confirming deletes, drops the row and toasts. */
  confirmDelete: Pick<ConfirmDialogProps, "open" | "onOpenChange" | "onConfirm">;
}

/** What `useRecordDialogs` needs besides the list. */
export interface RecordDialogsOptions<T> {
  /** The collection's path: a row is deleted at `{path}/{id}`. */
  path: string;
  /** The toast once a row is deleted. */
  deletedText: string;
  /** The list's row for a saved record (e.g. keeping counts the answer lacks); the record as it came when absent. */
  merge?: (saved: T, before: T | null) => T;
}

/** The page's state of its create-or-edit dialog and its delete confirmation; see the module doc. */
export function useRecordDialogs<T extends Identified>(list: PagedList<T>, options: RecordDialogsOptions<T>): RecordDialogs<T> {
  const [editing, setEditing] = useState<T | "new" | null>(null);
  const [deleting, setDeleting] = useState<T | null>(null);
  const row = editing === "new" ? null : editing;
  const { path, deletedText, merge } = options;
  const add = useCallback(() => setEditing("new"), []);
  const close = useCallback(() => setEditing(null), []);
  return {
    editing,
    row,
    add,
    edit: setEditing,
    close,
    saved: (record) => list.upsert(merge ? merge(record, row) : record),
    askDelete: setDeleting,
    confirmDelete: {
      open: deleting !== null,
      onOpenChange: (open) => !open && setDeleting(null),
      onConfirm: () => deleting && deleteRow(list, `${path}/${deleting.id}`, deleting.id, deletedText),
    },
  };
}

/** The page header's button that opens the dialog on a new record. */
export function AddButton({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <button type="button" className="btn btn-primary" onClick={onClick}>
      <Plus size={16} aria-hidden="true" /> {label}
    </button>
  );
}

/** The props every create-or-edit dialog takes from its page. */
export interface RecordDialogProps<T> {
  /** The record edited; null for a new one. */
  row: T | null;
  onClose: () => void;
  onSaved: (record: T) => void;
}

/** What `useRecordForm` needs besides the schema form's own options. */
export interface RecordFormOptions<V, T> extends Omit<FormOptions<V>, "onSubmit">, RecordDialogProps<T> {
  /** The collection's path (see `saveRecord`). */
  path: string;
  /** The body sent for the values; the values themselves when absent. */
  body?: (values: V) => unknown;
  /** Further calls once the record is saved (an upload); resolves with the record as it then is. */
  then?: (saved: T, values: V) => Promise<T>;
  /** A refusal as the form should show it (a field named by a code of its own); as it came when absent. */
  explain?: (error: unknown) => unknown;
  /** The toast once saved. */
  savedText: string;
}

/** A schema form whose submit saves the record, then hands it to the page, toasts and closes. */
export function useRecordForm<V extends Record<string, unknown>, T extends Identified>(
  options: RecordFormOptions<V, T>,
): SchemaForm<V> {
  const { path, row, body, then, explain, savedText, onSaved, onClose, ...form } = options;
  return useSchemaForm<V>({
    ...form,
    onSubmit: async (values) => {
      let saved: T;
      try {
        saved = await saveRecord<T>(path, row, body ? body(values) : values);
        if (then) saved = await then(saved, values);
      } catch (error) {
        throw explain ? explain(error) : error;
      }
      onSaved(saved);
      showToast("success", savedText);
      onClose();
    },
  });
}

/** The dialog of a record's form: open while the page shows it, closed (Cancel, Escape) through `onClose`. */
export function RecordDialog<V>(
  { form, title, onClose, wide, testId, children }: {
    form: SchemaForm<V>;
    title: string;
    onClose: () => void;
    wide?: boolean;
    testId?: string;
    children: ReactNode;
  },
) {
  return (
    <FormDialog open onOpenChange={(open) => !open && onClose()} title={title} form={form} wide={wide} testId={testId}>
      {children}
    </FormDialog>
  );
}
