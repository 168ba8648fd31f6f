/**
 * The admin kit's data table (@tanstack/react-table): sorting by header click, a column
 * visibility menu, row selection with a select-all checkbox, infinite scroll (the next page
 * when scrolled within 100 px of the bottom, spec 001 §9), the loading skeleton, the empty
 * state and the error state with a retry, and a row tint hook (red for overdue or inactive,
 * green for active). Rows come from `usePagedList`; the table keeps no copy of them.
 * Under 600 px the table scrolls sideways inside its frame instead of squeezing columns.
 */
import { type ReactNode, type UIEvent, useEffect, useMemo, useRef, useState } from "react";
import {
  type ColumnDef,
  flexRender,
  getCoreRowModel,
  getSortedRowModel,
  type RowSelectionState,
  type SortingState,
  useReactTable,
  type VisibilityState,
} from "@tanstack/react-table";
import { ArrowDown, ArrowUp, Columns3 } from "lucide-react";
import { DropdownMenu } from "radix-ui";
import { t } from "../lib/i18n.ts";
import { EmptyState, ErrorState, Skeleton } from "./States.tsx";
import type { PagedList } from "./use_paged_list.ts";

export type { ColumnDef };

/** A row's tint: `danger` (red: overdue, inactive) or `success` (green: active). */
export type RowTint = "danger" | "success" | undefined;

/** Props of DataTable. */
export interface DataTableProps<T> {
  list: PagedList<T>;
  columns: ColumnDef<T, unknown>[];
  rowId: (row: T) => string | number;
  /** Text of the empty state (what to do next). */
  emptyText: string;
  /** Initial sort, e.g. `[{ id: "prioridade", desc: false }]`. */
  initialSorting?: SortingState;
  /** Shows the checkbox column; the page owns the selection. */
  selection?: RowSelectionState;
  onSelectionChange?: (selection: RowSelectionState) => void;
  tint?: (row: T) => RowTint;
  /** Label of the table for screen readers. */
  label: string;
  testId?: string;
  /** A `data-testid` for every body row. */
  rowTestId?: string;
  /** Called when a row is clicked or gets Enter (form-beside-table screens load it into the form). */
  onRowActivate?: (row: T) => void;
  /** The row shown as the current one (highlighted, `aria-current`). */
  activeRowId?: string | number | null;
}

/** Distance from the bottom that loads the next page. */
const LOAD_MORE_PX = 100;

/** The table; see the module doc. */
export function DataTable<T>(props: DataTableProps<T>): ReactNode {
  const { list, columns, rowId, emptyText, initialSorting, selection, onSelectionChange, tint, label, testId, rowTestId, onRowActivate, activeRowId } = props;
  const [sorting, setSorting] = useState<SortingState>(initialSorting ?? []);
  const [visibility, setVisibility] = useState<VisibilityState>({});
  const selectable = selection !== undefined;
  const allColumns = useMemo(
    () => (selectable ? [selectColumn<T>(), ...columns] : columns),
    [columns, selectable],
  );
  const table = useReactTable<T>({
    data: list.rows,
    columns: allColumns,
    state: { sorting, columnVisibility: visibility, rowSelection: selection ?? {} },
    onSortingChange: setSorting,
    onColumnVisibilityChange: setVisibility,
    onRowSelectionChange: (updater) => {
      const next = typeof updater === "function" ? updater(selection ?? {}) : updater;
      onSelectionChange?.(next);
    },
    enableRowSelection: selectable,
    getRowId: (row) => String(rowId(row)),
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
  });

  const frame = useRef<HTMLDivElement>(null);
  function onScroll(event: UIEvent<HTMLDivElement>) {
    const el = event.currentTarget;
    if (list.hasMore && list.status === "ready" && el.scrollHeight - el.scrollTop - el.clientHeight < LOAD_MORE_PX) {
      list.loadMore();
    }
  }
  // A first page shorter than the frame never scrolls: keep loading until it fills or ends.
  useEffect(() => {
    const el = frame.current;
    if (el && list.hasMore && list.status === "ready" && el.scrollHeight <= el.clientHeight + LOAD_MORE_PX) list.loadMore();
  }, [list.rows.length, list.hasMore, list.status]);

  const hideable = table.getAllLeafColumns().filter((c) => c.getCanHide() && typeof c.columnDef.header === "string");

  return (
    <div className="data-table" data-testid={testId}>
      {hideable.length > 2 && (
        <div className="data-table-tools">
          <DropdownMenu.Root>
            <DropdownMenu.Trigger className="icon-btn" aria-label={t("table.columns")}>
              <Columns3 size={18} aria-hidden="true" />
            </DropdownMenu.Trigger>
            <DropdownMenu.Portal>
              <DropdownMenu.Content className="menu" align="end">
                {hideable.map((c) => (
                  <DropdownMenu.CheckboxItem
                    key={c.id}
                    className="menu-item"
                    checked={c.getIsVisible()}
                    onCheckedChange={(v) => c.toggleVisibility(!!v)}
                    onSelect={(e) => e.preventDefault()}
                  >
                    <span className="menu-check" aria-hidden="true">{c.getIsVisible() ? "✓" : ""}</span>
                    {c.columnDef.header as string}
                  </DropdownMenu.CheckboxItem>
                ))}
              </DropdownMenu.Content>
            </DropdownMenu.Portal>
          </DropdownMenu.Root>
        </div>
      )}
      <div className="data-table-frame" ref={frame} onScroll={onScroll}>
        {list.status === "error" && list.rows.length === 0
          ? <ErrorState text={t("table.loadError")} onRetry={list.reload} />
          : list.status === "loading" && list.rows.length === 0
          ? <Skeleton rows={6} />
          : list.rows.length === 0
          ? <EmptyState text={emptyText} />
          : (
            <table aria-label={label} aria-busy={list.status === "loading"}>
              <thead>
                {table.getHeaderGroups().map((group) => (
                  <tr key={group.id}>
                    {group.headers.map((header) => {
                      const sorted = header.column.getIsSorted();
                      const canSort = header.column.getCanSort() && typeof header.column.columnDef.header === "string";
                      return (
                        <th
                          key={header.id}
                          scope="col"
                          aria-sort={sorted === "asc" ? "ascending" : sorted === "desc" ? "descending" : undefined}
                          className={header.column.columnDef.meta?.className}
                        >
                          {canSort
                            ? (
                              <button type="button" className="th-sort" onClick={header.column.getToggleSortingHandler()}>
                                {flexRender(header.column.columnDef.header, header.getContext())}
                                {sorted === "asc" && <ArrowUp size={14} aria-hidden="true" />}
                                {sorted === "desc" && <ArrowDown size={14} aria-hidden="true" />}
                              </button>
                            )
                            : flexRender(header.column.columnDef.header, header.getContext())}
                        </th>
                      );
                    })}
                  </tr>
                ))}
              </thead>
              <tbody>
                {table.getRowModel().rows.map((row) => {
                  const tone = tint?.(row.original);
                  const current = activeRowId !== undefined && activeRowId !== null && String(activeRowId) === row.id;
                  const classes = [tone && `row-${tone}`, onRowActivate && "row-activatable", current && "row-current"].filter(Boolean).join(" ");
                  return (
                    <tr
                      key={row.id}
                      data-row-id={row.id}
                      data-testid={rowTestId}
                      className={classes || undefined}
                      aria-selected={selectable ? row.getIsSelected() : undefined}
                      aria-current={current || undefined}
                      tabIndex={onRowActivate ? 0 : undefined}
                      onClick={onRowActivate && ((e) => !(e.target as HTMLElement).closest("button, a, input, select") && onRowActivate(row.original))}
                      onKeyDown={onRowActivate && ((e) => e.key === "Enter" && e.target === e.currentTarget && onRowActivate(row.original))}
                    >
                      {row.getVisibleCells().map((cell) => (
                        <td key={cell.id} className={cell.column.columnDef.meta?.className}>
                          {flexRender(cell.column.columnDef.cell, cell.getContext())}
                        </td>
                      ))}
                    </tr>
                  );
                })}
              </tbody>
            </table>
          )}
        {list.hasMore && list.rows.length > 0 && <div className="data-table-more" aria-hidden="true"><Skeleton rows={1} /></div>}
      </div>
    </div>
  );
}

/** The checkbox column: select-all (with the mixed state) and one per row. */
function selectColumn<T>(): ColumnDef<T, unknown> {
  return {
    id: "_select",
    enableSorting: false,
    enableHiding: false,
    meta: { className: "col-select" },
    header: ({ table }) => (
      <input
        type="checkbox"
        aria-label={t("table.selectAll")}
        checked={table.getIsAllRowsSelected()}
        ref={(el) => {
          if (el) el.indeterminate = table.getIsSomeRowsSelected();
        }}
        onChange={table.getToggleAllRowsSelectedHandler()}
      />
    ),
    cell: ({ row }) => (
      <input
        type="checkbox"
        aria-label={t("table.selectRow")}
        checked={row.getIsSelected()}
        onChange={row.getToggleSelectedHandler()}
      />
    ),
  };
}

declare module "@tanstack/react-table" {
  interface ColumnMeta<TData, TValue> {
    /** A class for the column's cells (alignment, width). */
    className?: string;
  }
}
