/**
 * The "form and a table" screens of the platform owner (spec 001 §2.8 plans, §2.9 helps):
 * the form above switches between create (no record loaded) and update (a row clicked or its
 * edit icon), Limpar empties it, Excluir asks the §8 confirmation; saves wait the spec's
 * 500 ms, then toast 'Operação realizada com sucesso!' or the screen's own failure text
 * (§8: the company wording with 'plano' / 'helpo'). Field errors the server names still show
 * next to their inputs. Built for plans and reused by the help admin; the kit in islands/ui
 * has dialogs and tables but no inline record form nor row clicks.
 */
import { type MouseEvent, type ReactNode, useState } from "react";
import { api } from "../lib/api.ts";
import { t } from "../lib/i18n.ts";
import { showToast } from "../lib/toast.ts";
import { ConfirmDialog } from "../ui/ConfirmDialog.tsx";
import { type ColumnDef, DataTable } from "../ui/DataTable.tsx";
import { type SchemaForm, useSchemaForm } from "../ui/form.tsx";
import { actionsColumn } from "../ui/row_actions.tsx";
import type { SchemaName } from "../ui/schemas.ts";
import type { PagedList } from "../ui/use_paged_list.ts";

/** Spec 001 §9: the plan and help forms wait 500 ms before the call. */
export const RECORD_SUBMIT_DELAY_MS = 500;

/** What a screen gives useRecordAdmin. */
export interface RecordAdminOptions<T extends { id: number }, V> {
  /** The schema in domain/form_schemas.ts the server parses the body with. */
  schema: SchemaName;
  /** The API collection (`/plans`): POST here, PUT and DELETE at `${path}/{id}`. */
  path: string;
  list: PagedList<T>;
  /** The empty form (create mode). */
  blank: V;
  /** A row as form values (update mode). */
  toValues: (row: T) => V;
  /** The form values as the request body. */
  toBody: (values: V) => unknown;
  /** The failure toast of a save (spec 001 §8). */
  saveError: string;
}

/** The form, the record it edits (null: create), and the actions of the frame. */
export interface RecordAdmin<T, V> {
  form: SchemaForm<V>;
  editing: T | null;
  pick: (row: T) => void;
  clear: () => void;
  remove: () => Promise<void>;
}

/** The create/update/delete state of a form-and-table screen; see the module doc. */
export function useRecordAdmin<T extends { id: number }, V extends Record<string, unknown>>(
  options: RecordAdminOptions<T, V>,
): RecordAdmin<T, V> {
  const { schema, path, list, blank, toValues, toBody, saveError } = options;
  const [editing, setEditing] = useState<T | null>(null);
  const form = useSchemaForm<V>({
    schema,
    initial: blank,
    delayMs: RECORD_SUBMIT_DELAY_MS,
    onSubmit: async (values) => {
      try {
        const body = toBody(values);
        const saved = editing ? await api<T>("PUT", `${path}/${editing.id}`, body) : await api<T>("POST", path, body);
        list.upsert(saved);
        showToast("success", t("recordAdmin.saved"));
        clear();
      } catch (error) {
        showToast("error", saveError);
        // Fields the server named (a taken name, a bad number) go next to their inputs.
        const fields = (error as { body?: { fields?: Record<string, string> } }).body?.fields;
        if (fields && Object.keys(fields).some((k) => k in values)) throw error;
      }
    },
  });

  function clear() {
    setEditing(null);
    form.reset(blank);
  }

  function pick(row: T) {
    setEditing(row);
    form.reset(toValues(row));
  }

  async function remove() {
    if (!editing) return;
    try {
      await api("DELETE", `${path}/${editing.id}`);
      list.remove(editing.id);
      showToast("success", t("recordAdmin.saved"));
      clear();
    } catch {
      showToast("error", t("recordAdmin.deleteError"));
    }
  }

  return { form, editing, pick, clear, remove };
}

/** Props of RecordAdminFrame. */
export interface RecordAdminFrameProps<T extends { id: number }, V> {
  admin: RecordAdmin<T, V>;
  list: PagedList<T>;
  columns: ColumnDef<T, unknown>[];
  /** The form's fields. */
  children: ReactNode;
  /** The loaded record's name, shown above the form in update mode. */
  nameOf: (row: T) => string;
  label: string;
  emptyText: string;
  /** Prefix of the test ids: `-form`, `-save`, `-clear`, `-delete`, `-table`. */
  testId: string;
  /** Wider field cells, for a form of a few long texts (helps) rather than many short ones (plans). */
  wideFields?: boolean;
}

const rowId = (row: { id: number }) => row.id;

/** The form above the table; a row click (or its edit icon) loads the row into the form. */
export function RecordAdminFrame<T extends { id: number }, V>(props: RecordAdminFrameProps<T, V>) {
  const { admin, list, columns, children, nameOf, label, emptyText, testId, wideFields } = props;
  const { form, editing } = admin;
  const [confirming, setConfirming] = useState(false);
  const allColumns = [
    ...columns,
    actionsColumn<T>({
      onEdit: admin.pick,
      onDelete: (row) => {
        admin.pick(row);
        setConfirming(true);
      },
    }),
  ];

  function onTableClick(event: MouseEvent<HTMLDivElement>) {
    const target = event.target as HTMLElement;
    if (form.busy || target.closest("button, a, input, select")) return;
    const id = target.closest("tr[data-row-id]")?.getAttribute("data-row-id");
    const row = id ? list.rows.find((r) => String(r.id) === id) : undefined;
    if (row) admin.pick(row);
  }

  return (
    <div className="record-admin">
      <form className="record-form card" onSubmit={form.submit} noValidate data-testid={`${testId}-form`} aria-label={label}>
        {editing && <p className="record-editing">{t("recordAdmin.editing", { name: nameOf(editing) })}</p>}
        <div className={wideFields ? "record-fields record-fields-wide" : "record-fields"}>{children}</div>
        <div className="record-actions">
          <button type="button" className="btn" onClick={admin.clear} disabled={form.busy} data-testid={`${testId}-clear`}>
            {t("recordAdmin.clear")}
          </button>
          {editing && (
            <button type="button" className="btn btn-danger" onClick={() => setConfirming(true)} disabled={form.busy} data-testid={`${testId}-delete`}>
              {t("recordAdmin.delete")}
            </button>
          )}
          <button type="submit" className="btn btn-primary" disabled={form.busy} aria-busy={form.busy} data-testid={`${testId}-save`}>
            {form.busy ? t("common.saving") : t(editing ? "recordAdmin.update" : "recordAdmin.save")}
          </button>
        </div>
      </form>
      <p className="field-hint record-hint">{t("recordAdmin.rowHint")}</p>
      <div className="record-table" onClick={onTableClick}>
        <DataTable list={list} columns={allColumns} rowId={rowId} label={label} emptyText={emptyText} testId={`${testId}-table`} />
      </div>
      <ConfirmDialog open={confirming} onOpenChange={setConfirming} onConfirm={admin.remove} />
    </div>
  );
}
