/**
 * The FullCalendar of /schedules (@fullcalendar/react 7: month, week and day views, pt-BR or
 * es labels, en by default) with its stylesheets. Loaded lazily by SchedulesPage once mounted
 * in the browser: the server never imports it (Deno cannot import the CSS, and the calendar
 * draws in the reader's time zone anyway), and only this page's bundle carries it.
 */
import "temporal-polyfill/global";
import "@fullcalendar/react/skeleton.css";
import "@fullcalendar/react/themes/classic/theme.css";
import FullCalendar from "@fullcalendar/react";
import dayGridPlugin from "@fullcalendar/react/daygrid";
import timeGridPlugin from "@fullcalendar/react/timegrid";
import interactionPlugin from "@fullcalendar/react/interaction";
import classicTheme from "@fullcalendar/react/themes/classic";
import ptBrLocale from "@fullcalendar/react/locales/pt-br";
import esLocale from "@fullcalendar/react/locales/es";
import { currentLang } from "../lib/i18n.ts";

/** One event: a schedule's id, its contact's name, due time and status. */
export interface CalendarEvent {
  id: string;
  title: string;
  start: string;
  status: string;
}

/** Props of Calendar. */
export interface CalendarProps {
  events: CalendarEvent[];
  /** Phone width: view buttons move to the footer. */
  narrow: boolean;
  onEventClick: (id: number, at: DOMRect) => void;
  onDateClick: (date: Date, allDay: boolean) => void;
  /** The visible range changed (first render included). */
  onRange: (start: number, end: number) => void;
}

/**
 * The "today" button's name, which starts with its visible text ("Hoje: Este mês"): the
 * library names it by its hint alone ("Este mês"), and a voice-control user says what the
 * button shows (WCAG 2.5.3).
 */
function todayHint(locale: typeof ptBrLocale | undefined) {
  const text = locale?.todayText ?? "Today";
  return (unitText: string, unit: string) => {
    const hint = locale?.todayHint ?? "This $0";
    const said = typeof hint === "function" ? hint(unitText, unit) : hint.replace("$0", unitText.toLocaleLowerCase());
    return said.toLocaleLowerCase().includes(text.toLocaleLowerCase()) ? said : `${text}: ${said}`;
  };
}

/** The calendar; see the module doc. */
export default function Calendar({ events, narrow, onEventClick, onDateClick, onRange }: CalendarProps) {
  const locale = currentLang() === "pt" ? ptBrLocale : currentLang() === "es" ? esLocale : undefined;
  return (
    <FullCalendar
      plugins={[dayGridPlugin, timeGridPlugin, interactionPlugin, classicTheme]}
      {...(locale ? { locale } : {})}
      todayHint={todayHint(locale)}
      initialView="dayGridMonth"
      headerToolbar={narrow
        ? { start: "prev,next", center: "title", end: "today" }
        : { start: "prev,next today", center: "title", end: "dayGridMonth,timeGridWeek,timeGridDay" }}
      footerToolbar={narrow ? { center: "dayGridMonth,timeGridWeek,timeGridDay" } : false}
      height="auto"
      dayMaxEvents={3}
      events={events.map((e) => ({ id: e.id, title: e.title, start: e.start, allDay: false, extendedProps: { status: e.status } }))}
      eventClass={(info) => `schedule-event schedule-${String(info.event.extendedProps.status).toLowerCase()}`}
      eventClick={(info) => {
        info.jsEvent.preventDefault();
        onEventClick(Number(info.event.id), info.el.getBoundingClientRect());
      }}
      dateClick={(info) => onDateClick(info.date, info.allDay)}
      datesSet={(info) => onRange(info.start.getTime(), info.end.getTime())}
    />
  );
}
