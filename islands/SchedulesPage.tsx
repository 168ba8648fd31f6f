/**
 * The schedules screen (spec 001 §2.19): a month/week/day calendar (@fullcalendar/react 7,
 * pt-BR labels; en and es too) whose events are the scheduled messages, titled with the
 * contact's name and coloured by status. Clicking one opens a popover with its details, edit
 * (only PENDENTE, spec 001 §4) and delete (the §8 confirmation); clicking a day, or "Novo
 * agendamento", opens the schedule dialog; `?contactId=` opens it for that contact. The
 * route reads the months around today on the server; other months are fetched as the user
 * pages through them. Changes arrive live on `company-{id}-schedule`.
 *
 * The calendar draws in the reader's time zone, which the server does not know, so it mounts
 * in the browser (the server renders the frame and a placeholder of the same height): no
 * hydration mismatch, and the first data still comes with the page. FullCalendar and its
 * stylesheet load lazily from this island only (schedules/Calendar.tsx).
 */
import { lazy, Suspense, useEffect, useMemo, useRef, useState } from "react";
import { Plus } from "lucide-react";
import { api, get, query } from "./lib/api.ts";
import { t } from "./lib/i18n.ts";
import { channelName, onChannel, startSocket } from "./lib/socket.ts";
import { showToast, toastError } from "./lib/toast.ts";
import { AdminPage, type AdminPageProps, useViewer } from "./ui/AdminPage.tsx";
import { ConfirmDialog } from "./ui/ConfirmDialog.tsx";
import { ScheduleDialog } from "./schedules/ScheduleDialog.tsx";
import { SchedulePopover } from "./schedules/SchedulePopover.tsx";
import type { ScheduleRow, SchedulesResponse } from "./schedules/types.ts";
import type { Option } from "./tickets/types.ts";

/** FullCalendar and its CSS, fetched once the page is mounted in the browser (Calendar.tsx). */
const Calendar = lazy(() => import("./schedules/Calendar.tsx"));

/** Props of the SchedulesPage island. */
export interface SchedulesPageProps extends AdminPageProps<SchedulesResponse> {
  /** The range `initial` covers (ISO), so the calendar fetches only outside it. */
  range: { start: string; end: string };
  /** `?contactId=`: the contact the add dialog opens for. */
  contact: Option | null;
}

/** A loaded interval of due times, in ms. */
type Span = [number, number];

/** Every schedule due in [start, end), following `hasMore`. */
async function fetchRange(start: number, end: number): Promise<ScheduleRow[]> {
  const rows: ScheduleRow[] = [];
  for (let pageNumber = 1; pageNumber < 50; pageNumber++) {
    const r = await get<SchedulesResponse>(
      `/schedules${query({ start: new Date(start).toISOString(), end: new Date(end).toISOString(), pageNumber })}`,
    );
    rows.push(...r.schedules);
    if (!r.hasMore) break;
  }
  return rows;
}

/** The popover's target: a schedule and where it was clicked. */
interface Target {
  row: ScheduleRow;
  x: number;
  y: number;
}

/** The schedules page. */
export default function SchedulesPage({ initial, viewer: serverViewer, range, contact }: SchedulesPageProps) {
  const viewer = useViewer(serverViewer);
  const [rows, setRows] = useState<Map<number, ScheduleRow>>(() => new Map((initial?.schedules ?? []).map((s) => [s.id, s])));
  const loaded = useRef<Span[]>(initial ? [[Date.parse(range.start), Date.parse(range.end)]] : []);
  const [mounted, setMounted] = useState(false);
  const [narrow, setNarrow] = useState(false);
  const [dialog, setDialog] = useState<{ row: ScheduleRow | null; contact: Option | null; at?: number } | null>(
    contact ? { row: null, contact } : null,
  );
  const [target, setTarget] = useState<Target | null>(null);
  const [deleting, setDeleting] = useState<ScheduleRow | null>(null);

  const upsert = (row: ScheduleRow) => setRows((old) => new Map(old).set(row.id, { ...old.get(row.id), ...row }));
  const drop = (id: number) =>
    setRows((old) => {
      const next = new Map(old);
      next.delete(id);
      return next;
    });

  useEffect(() => {
    setMounted(true);
    const query = matchMedia("(max-width: 600px)");
    setNarrow(query.matches);
    const change = () => setNarrow(query.matches);
    query.addEventListener("change", change);
    return () => query.removeEventListener("change", change);
  }, []);

  useEffect(() => {
    if (!viewer) return;
    startSocket(viewer.companyId, viewer.id);
    const off = onChannel(channelName(viewer.companyId, "schedule"), (data) => {
      const event = data as { action: string; schedule?: ScheduleRow; scheduleId?: number };
      if (event.action === "delete" && event.scheduleId !== undefined) drop(event.scheduleId);
      else if (event.schedule) upsert(event.schedule);
    });
    const offResync = onChannel("resync", () => {
      const spans = loaded.current;
      loaded.current = [];
      for (const [start, end] of spans) load(start, end);
    });
    return () => {
      off();
      offResync();
    };
  }, [viewer?.id, viewer?.companyId]);

  /** Fetches [start, end) unless an earlier load covers it. */
  function load(start: number, end: number) {
    if (loaded.current.some(([s, e]) => s <= start && end <= e)) return;
    loaded.current.push([start, end]);
    fetchRange(start, end).then((found) => found.forEach(upsert), (error) => {
      loaded.current = loaded.current.filter(([s, e]) => s !== start || e !== end);
      toastError(error);
    });
  }

  const events = useMemo(() =>
    [...rows.values()].map((s) => ({
      id: String(s.id),
      title: s.contact?.name ?? `#${s.contactId}`,
      start: s.sendAt,
      status: s.status,
    })), [rows]);

  return (
    <AdminPage
      title={t("schedules.title")}
      actions={
        <button type="button" className="btn btn-primary" onClick={() => setDialog({ row: null, contact: null })} data-testid="schedule-add">
          <Plus size={16} aria-hidden="true" /> {t("schedules.add")}
        </button>
      }
      testId="schedules-page"
    >
      <div className="schedules-calendar" data-testid="schedules-calendar">
        {mounted
          ? (
            <Suspense fallback={<div className="schedules-placeholder" aria-busy="true">{t("schedules.loading")}</div>}>
              <Calendar
                events={events}
                narrow={narrow}
                onEventClick={(id, rect) => {
                  const row = rows.get(id);
                  if (row) setTarget({ row, x: rect.left + rect.width / 2, y: rect.bottom });
                }}
                onDateClick={(date, allDay) => {
                  // A day of the month view starts at 09:00; a slot of the week/day views at its time.
                  const at = new Date(date);
                  if (allDay) at.setHours(9, 0, 0, 0);
                  setDialog({ row: null, contact: null, at: Math.max(at.getTime(), Date.now() + 60_000) });
                }}
                onRange={load}
              />
            </Suspense>
          )
          : <div className="schedules-placeholder" aria-busy="true">{t("schedules.loading")}</div>}
        {mounted && rows.size === 0 && <p className="muted schedules-empty">{t("schedules.empty")}</p>}
      </div>
      {target && (
        <SchedulePopover
          row={rows.get(target.row.id) ?? target.row}
          x={target.x}
          y={target.y}
          onClose={() => setTarget(null)}
          onEdit={(row) => {
            setTarget(null);
            setDialog({ row, contact: null });
          }}
          onDelete={(row) => {
            setTarget(null);
            setDeleting(row);
          }}
        />
      )}
      {dialog && viewer && (
        <ScheduleDialog
          user={viewer}
          schedule={dialog.row}
          contact={dialog.contact}
          at={dialog.at}
          onClose={() => {
            setDialog(null);
            if (contact) history.replaceState(null, "", location.pathname);
          }}
          onSaved={upsert}
        />
      )}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(o) => !o && setDeleting(null)}
        onConfirm={() => {
          const row = deleting;
          if (!row) return;
          api("DELETE", `/schedules/${row.id}`).then(() => {
            drop(row.id);
            showToast("success", t("schedules.deleted"));
          }, toastError);
        }}
      />
    </AdminPage>
  );
}
