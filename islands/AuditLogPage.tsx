/**
 * The audit log screen (issue #24; not in the spec's route list): the company's admin reads
 * who changed users, settings, plans, the company and connections, and the logins, failed
 * logins and lockouts, newest first, 20 at a time, filtered by action, user and dates.
 * Read-only: entries are appended by the server and expire after 90 days.
 */
import { useEffect, useMemo, useRef, useState } from "react";
import { get, query } from "./lib/api.ts";
import { type LocaleKey, t } from "./lib/i18n.ts";
import { AdminPage, type AdminPageProps } from "./ui/AdminPage.tsx";
import { type ColumnDef, DataTable } from "./ui/DataTable.tsx";
import { LocalDateTime } from "./ui/LocalDateTime.tsx";
import { usePagedList } from "./ui/use_paged_list.ts";
import { useOptions } from "./ui/use_options.ts";
import { AUDIT_ACTIONS, type AuditEntry } from "../domain/audit.ts";

/** GET /audit-log body. */
interface AuditResponse {
  records: AuditEntry[];
  hasMore: boolean;
}

/** Props of the AuditLogPage island. */
export type AuditLogPageProps = AdminPageProps<AuditResponse>;

interface Filters {
  action: string;
  userId: string;
  from: string;
  to: string;
}

const rowId = (entry: AuditEntry) => entry.id;

/** "fields: name, password" / "value: enabled": the entry's detail as one short line. */
function detailText(entry: AuditEntry): string {
  return Object.entries(entry.detail)
    .map(([key, value]) => `${key}: ${Array.isArray(value) ? value.join(", ") : String(value)}`)
    .join(" · ");
}

/** The audit log page. */
export default function AuditLogPage({ initial }: AuditLogPageProps) {
  const [filters, setFilters] = useState<Filters>({ action: "", userId: "", from: "", to: "" });
  const users = useOptions("/users/list");
  const list = usePagedList<AuditEntry>({
    initial: initial && { rows: initial.records, hasMore: initial.hasMore },
    fetchPage: async (pageNumber) => {
      const r = await get<AuditResponse>(`/audit-log${query({ ...filters, pageNumber })}`);
      return { rows: r.records, hasMore: r.hasMore };
    },
    rowId,
  });
  // A filter change reloads page 1 (not on the first render: the server sent it).
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    list.reload();
  }, [filters.action, filters.userId, filters.from, filters.to]);

  const columns = useMemo<ColumnDef<AuditEntry, unknown>[]>(() => [
    { accessorKey: "at", header: t("audit.colAt"), cell: ({ row }) => <LocalDateTime value={row.original.at} /> },
    {
      accessorKey: "userName",
      header: t("audit.colWho"),
      // Nobody acted: a login attempt (nobody is signed in yet) or the server itself (a dropped connection).
      cell: ({ row }) => row.original.userName ?? t(row.original.action.startsWith("login.") ? "audit.nobody" : "audit.system"),
    },
    {
      accessorKey: "action",
      header: t("audit.colAction"),
      cell: ({ row }) => (
        <span>
          {t(`audit.action.${row.original.action}` as LocaleKey)}
          {row.original.count > 1 && <span className="muted"> ×{row.original.count}</span>}
        </span>
      ),
    },
    {
      id: "target",
      header: t("audit.colTarget"),
      cell: ({ row }) => `${t(`audit.kind.${row.original.target.kind}` as LocaleKey)} ${row.original.target.name ?? row.original.target.id}`,
    },
    { id: "detail", header: t("audit.colDetail"), cell: ({ row }) => <span className="muted">{detailText(row.original)}</span> },
  ], []);

  const set = (key: keyof Filters) => (e: { target: { value: string } }) => setFilters((f) => ({ ...f, [key]: e.target.value }));
  return (
    <AdminPage
      title={t("audit.title")}
      actions={
        <div className="audit-filters" data-testid="audit-filters">
          <select className="input" aria-label={t("audit.filterAction")} value={filters.action} onChange={set("action")}>
            <option value="">{t("audit.allActions")}</option>
            {AUDIT_ACTIONS.map((a) => <option key={a} value={a}>{t(`audit.action.${a}` as LocaleKey)}</option>)}
          </select>
          <select className="input" aria-label={t("audit.filterUser")} value={filters.userId} onChange={set("userId")}>
            <option value="">{t("audit.allUsers")}</option>
            {users.map((u) => <option key={u.id} value={u.id}>{u.name}</option>)}
          </select>
          <input type="date" className="input" aria-label={t("audit.from")} title={t("audit.from")} value={filters.from} onChange={set("from")} />
          <input type="date" className="input" aria-label={t("audit.to")} title={t("audit.to")} value={filters.to} onChange={set("to")} />
        </div>
      }
      testId="audit-page"
    >
      <DataTable list={list} columns={columns} rowId={rowId} label={t("audit.title")} emptyText={t("audit.empty")} testId="audit-table" />
    </AdminPage>
  );
}
