/**
 * /audit-log: the company's audit log (issue #24), its first page read on the server. Not in
 * spec 002's route table: the spec's product has no audit log; this page lets the company's
 * admin read the one issue #24 adds (GET /audit-log), on the admin kit like /tags.
 */
import AuditLogPage, { type AuditLogPageProps } from "../islands/AuditLogPage.tsx";
import { Island, type PageProps } from "../server/pages/island.tsx";
import type { PageLoad } from "../server/pages/loader.ts";
import { AdminRoute } from "../server/pages/admin_route.tsx";

/** The filters' layout (static/pages/audit_log.css). */
export const css = "audit_log";

/** The first page of the log as GET /audit-log answers it. */
export function load(l: PageLoad) {
  return l.api("/audit-log?pageNumber=1");
}

/** The audit log page. */
export default function AuditLogRoute({ ctx, data }: PageProps) {
  return (
    <AdminRoute ctx={ctx}>
      <Island<AuditLogPageProps> ctx={ctx} name="AuditLogPage" component={AuditLogPage} props={{ initial: data ?? null, viewer: ctx.viewer }} />
    </AdminRoute>
  );
}
