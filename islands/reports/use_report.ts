/**
 * The report's state: the filters applied, the page and its size, and the rows of that page
 * from GET /ticketreport/reports. The first page comes from the server-rendered props; a
 * newer request wins over an older answer. The rows are offered as the kit's PagedList (one
 * page, nothing more to scroll to) so DataTable draws them with its loading, empty and error
 * states. Spec 002 §9: the report refetches 5 s after a ticket is finished.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { get } from "../lib/api.ts";
import { channelName, onChannel, startSocket } from "../lib/socket.ts";
import type { ListStatus, PagedList } from "../ui/use_paged_list.ts";
import { useAfterFirst } from "../ui/use_after_first.ts";
import { REPORT_DEFAULT_PAGE_SIZE } from "../../domain/ticket_report.ts";
import { filterQuery, NO_FILTERS, type ReportFilters } from "./query.ts";

/** A row as GET /ticketreport/reports answers it. */
export interface ReportRow {
  id: number;
  uuid: string;
  status: "open" | "pending" | "closed";
  isGroup: boolean;
  whatsappName: string;
  contactName: string;
  contactNumber: string;
  userName: string;
  queueName: string;
  createdAt: string;
  closedAt: string | null;
}

/** GET /ticketreport/reports body. */
export interface ReportResponse {
  tickets: ReportRow[];
  totalTickets: { total: number };
  /** The company's zone (#41). */
  timeZone?: string;
}

/** Spec 002 §9: the refetch delay after a finish event. */
const REFETCH_AFTER_FINISH_MS = 5000;

const rowId = (r: ReportRow) => r.id;

/** The report hook; see the module doc. */
export function useReport(initial: ReportResponse | null, viewer: { id: number; companyId: number } | null) {
  const [applied, setApplied] = useState<ReportFilters>(NO_FILTERS);
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(REPORT_DEFAULT_PAGE_SIZE);
  const [rows, setRows] = useState<ReportRow[]>(initial?.tickets ?? []);
  const [total, setTotal] = useState(initial?.totalTickets.total ?? 0);
  /** The page and size `rows` belong to (the pager's range names what is on screen). */
  const [shown, setShown] = useState({ page: 1, pageSize: REPORT_DEFAULT_PAGE_SIZE });
  const [status, setStatus] = useState<ListStatus>(initial ? "ready" : "loading");
  const [timeZone, setTimeZone] = useState(initial?.timeZone ?? "America/Sao_Paulo");
  const zone = useRef(timeZone);
  zone.current = timeZone;
  const request = useRef(0);
  const current = useRef({ applied, page, pageSize });
  current.current = { applied, page, pageSize };

  const load = useCallback(async () => {
    const id = ++request.current;
    const { applied, page, pageSize } = current.current;
    setStatus("loading");
    try {
      const r = await get<ReportResponse>(`/ticketreport/reports${filterQuery(applied, { page, pageSize }, zone.current)}`);
      if (id !== request.current) return;
      if (r.timeZone) setTimeZone(r.timeZone);
      setRows(r.tickets);
      setTotal(r.totalTickets.total);
      setShown({ page, pageSize });
      setStatus("ready");
    } catch {
      if (id === request.current) setStatus("error");
    }
  }, []);

  useAfterFirst(() => load(), [applied, page, pageSize], Boolean(initial));

  useEffect(() => {
    if (!viewer) return;
    startSocket(viewer.companyId, viewer.id);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const off = onChannel(channelName(viewer.companyId, "ticket"), (data) => {
      const d = data as { action?: string; ticket?: { status?: string } };
      if (d.action !== "update" || d.ticket?.status !== "closed") return;
      clearTimeout(timer);
      timer = setTimeout(load, REFETCH_AFTER_FINISH_MS);
    });
    const offResync = onChannel("resync", () => load());
    return () => {
      clearTimeout(timer);
      off();
      offResync();
    };
  }, [viewer?.id, viewer?.companyId]);

  const list = useMemo<PagedList<ReportRow>>(() => ({
    rows,
    status,
    hasMore: false,
    count: total,
    search: "",
    setSearch: () => {},
    loadMore: async () => {},
    reload: load,
    upsert: () => {},
    remove: () => {},
    rowId,
  }), [rows, status, total]);

  return {
    list,
    timeZone,
    applied,
    page,
    pageSize,
    shown,
    total,
    /** Applies new filters from page 1. */
    apply: (filters: ReportFilters) => {
      setPage(1);
      setApplied(filters);
      if (filters === current.current.applied) load();
    },
    setPage,
    setPageSize: (size: number) => {
      setPage(1);
      setPageSize(size);
    },
  };
}
