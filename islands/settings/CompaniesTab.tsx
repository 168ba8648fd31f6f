/**
 * The Empresas tab of /settings and the whole of /companies (spec 001 §2.6), in the kit's page
 * frame (title and search): the company form above a searchable, infinitely scrolled table of every company (id, name, e-mail, phone,
 * plan, due date with recurrence, referral code, and in a cluster the process that runs it, with
 * a move to another: ProcessCell.tsx), rows tinted green when active and red when
 * inactive. Clicking a row, or Enter on its name, loads that company into the form.
 * Super only (the tab registry hides it, routeGate gates /companies, the API refuses others).
 */
import { type MouseEvent, useMemo, useState } from "react";
import type { SettingsTabProps } from "../SettingsPage.tsx";
import { api, get, query } from "../lib/api.ts";
import { t } from "../lib/i18n.ts";
import { showToast, toastError } from "../lib/toast.ts";
import { AdminPage } from "../ui/AdminPage.tsx";
import { ConfirmDialog } from "../ui/ConfirmDialog.tsx";
import { type ColumnDef, DataTable } from "../ui/DataTable.tsx";
import { useSchemaForm } from "../ui/form.tsx";
import { deleteRow } from "../ui/row_actions.tsx";
import { useOptions } from "../ui/use_options.ts";
import { usePagedList } from "../ui/use_paged_list.ts";
import { UserDialog } from "../users/UserDialog.tsx";
import { CompanyForm } from "../companies/CompanyForm.tsx";
import { ProcessCell } from "../companies/ProcessCell.tsx";
import { useClusterNodes } from "../companies/use_cluster_nodes.ts";
import {
  type CompaniesResponse,
  COMPANIES_PATHS,
  companyBody,
  type CompanyRow,
  companyValues,
  type CompanyValues,
  dueText,
  newCompanyValues,
  type PlanRef,
} from "../companies/company_row.ts";

/** The spec's submit delay for the company form (001 §9). */
const SUBMIT_DELAY_MS = 500;

const rowId = (company: CompanyRow) => company.id;

/** The companies screen. */
export function CompaniesTab({ viewer, initial }: SettingsTabProps) {
  const first = initial?.[COMPANIES_PATHS.page] as CompaniesResponse | null | undefined;
  const serverPlans = initial?.[COMPANIES_PATHS.plans] as PlanRef[] | null | undefined;
  const fetchedPlans = useOptions(serverPlans ? null : COMPANIES_PATHS.plans);
  const plans = serverPlans ?? fetchedPlans;
  const list = usePagedList<CompanyRow>({
    initial: first ? { rows: first.companies, hasMore: first.hasMore, count: first.count } : null,
    fetchPage: async (pageNumber, searchParam) => {
      const r = await get<CompaniesResponse>(`/companies/${query({ searchParam, pageNumber })}`);
      return { rows: r.companies, hasMore: r.hasMore, count: r.count };
    },
    rowId,
  });
  const [selected, setSelected] = useState<CompanyRow | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [userOpen, setUserOpen] = useState(false);
  const queues = useOptions(userOpen && selected ? `/queue${query({ companyId: selected.id })}` : null);
  const nodes = useClusterNodes(list.rows.some((c) => c.node));

  const form = useSchemaForm<CompanyValues>({
    schema: "CompanyInput",
    delayMs: SUBMIT_DELAY_MS,
    initial: newCompanyValues(),
    onSubmit: async (v) => {
      let saved: CompanyRow;
      try {
        saved = selected
          ? await api<CompanyRow>("PUT", `/companies/${selected.id}`, companyBody(v))
          : await api<CompanyRow>("POST", "/companies", companyBody(v));
      } catch (error) {
        showToast("error", t("companies.saveFailed"));
        const body = (error as { body?: { error?: string; fields?: Record<string, string> } }).body;
        // A taken name is marked on the field; field errors of a 400 go to their fields.
        if (body?.error === "ERR_CONFLICT") throw { body: { fields: { name: t("companies.saveFailed") } } };
        if (body?.fields) throw error;
        return;
      }
      list.upsert(saved);
      showToast("success", t("companies.saved"));
      clear();
    },
  });

  function clear() {
    setSelected(null);
    form.reset(newCompanyValues());
  }

  async function select(company: CompanyRow) {
    try {
      const detail = await get<CompanyRow>(`/companies/${company.id}`);
      setSelected(detail);
      form.reset(companyValues(detail));
    } catch (error) {
      toastError((error as { body?: unknown }).body ?? error);
    }
  }

  // One path for mouse and keyboard: a click anywhere on a row, or Enter/Space on its name
  // button (which the browser turns into a click), bubbles here.
  function onTableClick(event: MouseEvent<HTMLDivElement>) {
    const tr = (event.target as HTMLElement).closest("tr[data-row-id]");
    const company = tr && list.rows.find((c) => String(c.id) === tr.getAttribute("data-row-id"));
    if (company && !form.busy) select(company);
  }

  const columns = useMemo<ColumnDef<CompanyRow, unknown>[]>(() => [
    { accessorKey: "id", header: t("companies.colId") },
    {
      accessorKey: "name",
      header: t("companies.colName"),
      cell: ({ row }) => (
        <button type="button" className="company-pick" aria-label={t("companies.select", { name: row.original.name })}>
          {row.original.name}
          <span className="sr-only"> ({t(row.original.status ? "companies.active" : "companies.inactive")})</span>
        </button>
      ),
    },
    { accessorKey: "email", header: t("companies.colEmail") },
    { accessorKey: "phone", header: t("companies.colPhone") },
    { id: "plan", accessorFn: (c) => c.plan?.name ?? "", header: t("companies.colPlan") },
    {
      id: "dueDate",
      accessorFn: (c) => c.dueDate ?? "",
      header: t("companies.colDue"),
      cell: ({ row }) => {
        const due = dueText(row.original.dueDate);
        return due ? `${due} · ${row.original.recurrence === "MENSAL" ? t("companies.monthly") : row.original.recurrence}` : "";
      },
    },
    { accessorKey: "indicator", header: t("companies.colIndicator") },
    // Several processes (issue #35): which one runs the company, and a move to another.
    ...(list.rows.some((c) => c.node)
      ? [{
        id: "node",
        accessorFn: (c: CompanyRow) => c.node ?? "",
        header: t("companies.colProcess"),
        cell: ({ row }: { row: { original: CompanyRow } }) => (
          <ProcessCell
            companyId={row.original.id}
            companyName={row.original.name}
            node={row.original.node ?? null}
            nodes={nodes}
            onMoved={() => setTimeout(() => list.reload(), 3000)}
          />
        ),
      } satisfies ColumnDef<CompanyRow, unknown>]
      : []),
  ], [list.rows, nodes]);

  return (
    <div className="companies-screen">
      <AdminPage title={t("companies.title")} search={{ value: list.search, onChange: list.setSearch }} testId="companies-screen">
        <CompanyForm
          form={form}
          editing={selected?.name ?? null}
          plans={plans}
          onClear={clear}
          onDelete={() => setDeleting(true)}
          onUser={() => setUserOpen(true)}
        />
        <div className="companies-table" onClick={onTableClick}>
          <DataTable
            list={list}
            columns={columns}
            rowId={rowId}
            label={t("companies.title")}
            emptyText={t("companies.empty")}
            tint={(c) => (c.status ? "success" : "danger")}
            testId="companies-table"
            rowTestId="company-row"
          />
        </div>
        <ConfirmDialog
          open={deleting}
          onOpenChange={setDeleting}
          onConfirm={() => selected && deleteRow(list, `/companies/${selected.id}`, selected.id, t("companies.saved")).then(clear)}
        />
        {userOpen && selected && (
          <UserDialog
            row={null}
            viewer={viewer}
            queues={queues}
            connections={[]}
            companyId={selected.id}
            onClose={() => setUserOpen(false)}
            onSaved={() => {}}
          />
        )}
      </AdminPage>
    </div>
  );
}
