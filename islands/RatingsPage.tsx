/**
 * The ratings screen (spec 002 §2.11, §5): the company's satisfaction surveys in a searchable
 * table with infinite scroll, a dialog to add or edit one (name ≥ 3 'nome muito curto',
 * message 'Obrigatório', the geral active/inactive flag, option rows of a name and a numeric
 * value added and removed freely), delete with the §8 confirmation. The dialog checks with the
 * server's own RatingInput. Everyone in the company may manage them (002 §6 names no role).
 * Rows change live on `company-{id}-rating`. These are the surveys the close dialog offers
 * and /survey shows.
 */
import { useMemo } from "react";
import { Plus, Trash2 } from "lucide-react";
import { get, query } from "./lib/api.ts";
import { t } from "./lib/i18n.ts";
import { AdminPage, type AdminPageProps, IconButton, useViewer } from "./ui/AdminPage.tsx";
import { actionsColumn } from "./ui/row_actions.tsx";
import { ConfirmDialog } from "./ui/ConfirmDialog.tsx";
import { type ColumnDef, DataTable } from "./ui/DataTable.tsx";
import { CheckField, type SchemaForm, TextField } from "./ui/form.tsx";
import { AddButton, RecordDialog, type RecordDialogProps, useRecordDialogs, useRecordForm } from "./ui/record_dialogs.tsx";
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
  const dialogs = useRecordDialogs(list, { path: "/ratings", deletedText: t("ratings.deleted") });

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
    actionsColumn<RatingRow>({ onEdit: dialogs.edit, onDelete: dialogs.askDelete }),
  ], []);

  return (
    <AdminPage
      title={t("ratings.title")}
      search={{ value: list.search, onChange: list.setSearch }}
      actions={
        <AddButton label={t("ratings.add")} onClick={dialogs.add} />
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
      {dialogs.editing && <RatingDialog row={dialogs.row} onClose={dialogs.close} onSaved={dialogs.saved} />}
      <ConfirmDialog {...dialogs.confirmDelete} />
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
function RatingDialog({ row: rating, onClose, onSaved }: RecordDialogProps<RatingRow>) {
  const form = useRecordForm<RatingValues, RatingRow>({
    schema: "RatingInput",
    initial: {
      name: rating?.name ?? "",
      message: rating?.message ?? "",
      geral: rating?.geral ?? true,
      options: rating ? rating.options.map((o) => ({ name: o.name, value: String(o.value) })) : [{ name: "", value: "" }],
    },
    path: "/ratings",
    row: rating,
    body: (v) => ({ name: v.name, message: v.message, geral: v.geral, options: v.options }),
    savedText: t("ratings.saved"),
    onSaved,
    onClose,
  });
  return (
    <RecordDialog form={form} title={t(rating ? "ratings.edit" : "ratings.add")} onClose={onClose} testId="rating-save" wide>
      <TextField form={form} name="name" label={t("ratings.name")} autoFocus className="form-full" />
      <TextField form={form} name="message" label={t("ratings.message")} rows={3} className="form-full" variables />
      <CheckField form={form} name="geral" label={t("ratings.geral")} className="form-full" />
      <OptionRows form={form} />
    </RecordDialog>
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
