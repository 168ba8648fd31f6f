/**
 * /schedules: the schedules calendar of spec 001 §2.19 (plan flag useSchedules, gated by
 * islands/shell/menu.ts routeGate). Its first data is read on the server: the schedules due
 * from the start of last month to the end of next month (any reader's zone falls inside), and
 * the contact of `?contactId=`, whose add dialog opens at once.
 */
import SchedulesPage, { type SchedulesPageProps } from "../islands/SchedulesPage.tsx";
import type { SchedulesResponse } from "../islands/schedules/types.ts";
import { Island, type PageProps } from "../server/pages/island.tsx";
import type { PageLoad } from "../server/pages/loader.ts";
import { AdminRoute } from "../server/pages/admin_route.tsx";

/** The page's own stylesheets (static/pages/): the calendar's and the schedule dialog's. */
export const css = ["schedules", "schedule_dialog"];

/** What the route hands the island. */
interface SchedulesData {
  initial: SchedulesResponse | null;
  range: { start: string; end: string };
  contact: { id: number; name: string } | null;
}

/** The months around today (UTC) as GET /schedules answers them, and the `?contactId=` contact. */
export async function load(l: PageLoad): Promise<SchedulesData> {
  const now = new Date();
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString();
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 2, 1)).toISOString();
  const contactId = Number(l.query.get("contactId"));
  const [initial, contact] = await Promise.all([
    l.api<SchedulesResponse>(`/schedules?start=${encodeURIComponent(start)}&end=${encodeURIComponent(end)}`),
    Number.isInteger(contactId) && contactId > 0 ? l.api<{ id: number; name: string }>(`/contacts/${contactId}`) : null,
  ]);
  // More than one page in the range: let the island fetch the whole range itself.
  const complete = initial && !initial.hasMore ? initial : null;
  return { initial: complete, range: { start, end }, contact: contact ? { id: contact.id, name: contact.name } : null };
}

/** The schedules page. */
export default function SchedulesRoute({ ctx, data }: PageProps) {
  const loaded = data as SchedulesData | undefined;
  return (
    <AdminRoute ctx={ctx}>
      <Island<SchedulesPageProps>
        ctx={ctx}
        name="SchedulesPage"
        component={SchedulesPage}
        props={{
          initial: loaded?.initial ?? null,
          viewer: ctx.viewer,
          range: loaded?.range ?? { start: new Date(0).toISOString(), end: new Date(0).toISOString() },
          contact: loaded?.contact ?? null,
        }}
      />
    </AdminRoute>
  );
}
