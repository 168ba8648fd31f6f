/**
 * The ratings screen (spec 002 §2.11, §5): the company's satisfaction surveys in a searchable
 * table with infinite scroll, a dialog to add or edit one (name ≥ 3 'nome muito curto',
 * message 'Obrigatório', the geral active/inactive flag, option rows of a name and a numeric
 * value added and removed freely), delete with the §8 confirmation. The dialog checks with the
 * server's own RatingInput. Everyone in the company may manage them (002 §6 names no role).
 * Rows change live on `company-{id}-rating`. These are the surveys the close dialog offers
 * and /survey shows.
 */
import { useMemo, useState } from "react";
import { Plus, Trash2 } from "lucide-react";
import { api, get, query } from "./lib/api.ts";
import { t } from "./lib/i18n.ts";
import { showToast } from "./lib/toast.ts";
import { AdminPage, type AdminPageProps, IconButton, useViewer } from "./ui/AdminPage.tsx";
import { actionsColumn, deleteRow } from "./ui/row_actions.tsx";
import { ConfirmDialog } from "./ui/ConfirmDialog.tsx";
import { type ColumnDef, DataTable } from "./ui/DataTable.tsx";
import { CheckField, FormDialog, type SchemaForm, TextField, useSchemaForm } from "./ui/form.tsx";
import { usePagedList } from "./ui/use_paged_list.ts";
import { useLiveRows } from "./ui/use_live_rows.ts";

/** One option of a survey. */
interface RatingOption {
  name: string;
  value: number;
}

/** A rating row as GET /ratings/ answers it. */
export interface RatingRow {
  id: number;
  name: string;
  message: string;
  geral: boolean;
  options: RatingOption[];
  userId: number | null;
}

/** GET /ratings/ body. */
interface RatingsResponse {
  ratings: RatingRow[];
  count: number;
  hasMore: boolean;
}

/** Props of the RatingsPage island. */
export type RatingsPageProps = AdminPageProps<RatingsResponse>;

const rowId = (rating: RatingRow) => rating.id;

/** The ratings page. */
export default function RatingsPage({ initial, viewer: serverViewer }: RatingsPageProps) {
  const viewer = useViewer(serverViewer);
  const list = usePagedList<RatingRow>({
    initial: initial && { rows: initial.ratings, hasMore: initial.hasMore, count: initial.count },
    fetchPage: async (pageNumber, searchParam) => {
      const r = await get<RatingsResponse>(`/ratings/${query({ searchParam, pageNumber })}`);
      return { rows: r.ratings, hasMore: r.hasMore, count: r.count };
    },
    rowId,
  });
  useLiveRows(viewer, list, { suffix: "rating", record: "rating", idKey: "ratingId" });
  const [editing, setEditing] = useState<RatingRow | "new" | null>(null);
  const [deleting, setDeleting] = useState<RatingRow | null>(null);

  const columns = useMemo<ColumnDef<RatingRow, unknown>[]>(() => [
    { accessorKey: "name", header: t("ratings.colName"), meta: { className: "col-name" } },
    {
      accessorKey: "message",
      header: t("ratings.colMessage"),
      cell: ({ row }) => <span className="cell-clip" title={row.original.message}>{row.original.message}</span>,
    },
    {
      accessorKey: "geral",
      header: t("ratings.colGeral"),
      cell: ({ row }) => (
        <span className={row.original.geral ? "chip chip-neutral tone-success" : "chip chip-outline"}>
          {t(row.original.geral ? "ratings.active" : "ratings.inactive")}
        </span>
      ),
    },
    {
      id: "options",
      header: t("ratings.colOptions"),
      enableSorting: false,
      cell: ({ row }) => (
        <span className="rating-options">
          {row.original.options.map((o) => <span key={o.value} className="chip chip-outline">{o.value} · {o.name}</span>)}
        </span>
      ),
    },
    actionsColumn<RatingRow>({ onEdit: setEditing, onDelete: setDeleting }),
  ], []);

  return (
    <AdminPage
      title={t("ratings.title")}
      search={{ value: list.search, onChange: list.setSearch }}
      actions={
        <button type="button" className="btn btn-primary" onClick={() => setEditing("new")}>
          <Plus size={16} aria-hidden="true" /> {t("ratings.add")}
        </button>
      }
      testId="ratings-page"
    >
      <DataTable
        list={list}
        columns={columns}
        rowId={rowId}
        label={t("ratings.title")}
        emptyText={t("ratings.empty")}
        testId="ratings-table"
      />
      {editing && (
        <RatingDialog
          rating={editing === "new" ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={(rating) => list.upsert(rating)}
        />
      )}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(o) => !o && setDeleting(null)}
        onConfirm={() => deleting && deleteRow(list, `/ratings/${deleting.id}`, deleting.id, t("ratings.deleted"))}
      />
    </AdminPage>
  );
}

/** An option row as typed: the value stays text until the schema reads it as a number. */
interface OptionValues {
  name: string;
  value: string;
}

/** The form's values (RatingInput's fields). */
interface RatingValues extends Record<string, unknown> {
  name: string;
  message: string;
  geral: boolean;
  options: OptionValues[];
}

/** Add or edit one rating. */
function RatingDialog({ rating, onClose, onSaved }: { rating: RatingRow | null; onClose: () => void; onSaved: (rating: RatingRow) => void }) {
  const form = useSchemaForm<RatingValues>({
    schema: "RatingInput",
    initial: {
      name: rating?.name ?? "",
      message: rating?.message ?? "",
      geral: rating?.geral ?? true,
      options: rating ? rating.options.map((o) => ({ name: o.name, value: String(o.value) })) : [{ name: "", value: "" }],
    },
    onSubmit: async (v) => {
      const body = { name: v.name, message: v.message, geral: v.geral, options: v.options };
      const saved = rating ? await api<RatingRow>("PUT", `/ratings/${rating.id}`, body) : await api<RatingRow>("POST", "/ratings", body);
      onSaved(saved);
      showToast("success", t("ratings.saved"));
      onClose();
    },
  });
  return (
    <FormDialog open onOpenChange={(o) => !o && onClose()} title={t(rating ? "ratings.edit" : "ratings.add")} form={form} testId="rating-save" wide>
      <TextField form={form} name="name" label={t("ratings.name")} autoFocus className="form-full" />
      <TextField form={form} name="message" label={t("ratings.message")} rows={3} className="form-full" variables />
      <CheckField form={form} name="geral" label={t("ratings.geral")} className="form-full" />
      <OptionRows form={form} />
    </FormDialog>
  );
}

/** The option rows: a name and a numeric value each, with the schema's message under each input. */
function OptionRows({ form }: { form: SchemaForm<RatingValues> }) {
  const rows = form.values.options;
  const put = (next: OptionValues[]) => form.set("options", next);
  // The schema's messages sit at `options.{i}.{field}`: an edited input drops its own, a
  // removed row drops them all (the rows below it move up).
  const clearAll = () => Object.keys(form.errors).forEach((k) => k.startsWith("options.") && form.setError(k, undefined));
  const fields = [["name", "ratings.optionName", "text"], ["value", "ratings.optionValue", "number"]] as const;
  return (
    <fieldset className="field form-full pair-rows" disabled={form.busy} data-testid="rating-options">
      <legend>{t("ratings.options")}</legend>
      {rows.map((row, i) => (
        <div className="pair-row" key={i}>
          {fields.map(([key, label, type]) => {
            const error = form.errors[`options.${i}.${key}`];
            return (
              <div className="field" key={key}>
                <input
                  className="input"
                  type={type}
                  inputMode={type === "number" ? "decimal" : undefined}
                  aria-label={`${t(label)} ${i + 1}`}
                  placeholder={t(label)}
                  aria-invalid={error ? true : undefined}
                  value={row[key]}
                  onChange={(e) => {
                    put(rows.map((r, j) => (j === i ? { ...r, [key]: e.target.value } : r)));
                    if (error) form.setError(`options.${i}.${key}`, undefined);
                  }}
                />
                {error && <span className="field-error" role="alert">{error}</span>}
              </div>
            );
          })}
          <IconButton label={`${t("ratings.removeOption")} ${i + 1}`} onClick={() => {
            put(rows.filter((_, j) => j !== i));
            clearAll();
          }} danger>
            <Trash2 size={16} />
          </IconButton>
        </div>
      ))}
      {form.errors.options && <span className="field-error" role="alert">{form.errors.options}</span>}
      <button type="button" className="btn btn-small" onClick={() => put([...rows, { name: "", value: "" }])}>
        <Plus size={14} aria-hidden="true" /> {t("ratings.addOption")}
      </button>
    </fieldset>
  );
}
