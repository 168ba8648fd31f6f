/**
 * One ticket list (a status and group flag plus the manager's filters): pages of 25 from
 * GET /tickets, infinite scroll, live updates applied at once from `company-{id}-ticket` and
 * `appMessage` events and confirmed by a reload debounced 500 ms (spec 000 §4, §9), contact
 * edits copied into the rows (contact_patch.ts), a reload
 * on socket resync, and loading / error states. A search answered while the server's message
 * index is still building (after a start) says so (`partial`) and is asked again every few
 * seconds until it is complete (issue #23). While a status list is shown the page follows its
 * messages (joinTickets, shared by the open and group lists of one status); hiding it sends
 * leaveTickets.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { get, query } from "../lib/api.ts";
import { channelName, onChannel, retain } from "../lib/socket.ts";
import { HeardContacts, onContactUpdate, withContact } from "./contact_patch.ts";
import type { ListFilters, TicketItem } from "./types.ts";

const PAGE = 25;
/** How soon a partial search is asked again. */
const PARTIAL_RETRY_MS = 3000;

/** What a list asks the server for. */
export interface ListSpec {
  status?: "open" | "pending" | "closed";
  isGroup?: boolean;
  filters: ListFilters;
  /** Search lists skip the live insertion of new tickets (they only reload). */
  search?: boolean;
  companyId: number;
  /** The user, for deciding whether a live ticket belongs in an assigned list. */
  userId: number;
  enabled: boolean;
}

/** State and actions of one list. */
export interface TicketList {
  tickets: TicketItem[];
  count: number;
  hasMore: boolean;
  /** The search's matches by message text are incomplete: the server's index is still building. */
  partial: boolean;
  status: "loading" | "ready" | "error";
  loadMore: () => void;
  reload: () => void;
}

function belongs(spec: ListSpec, t: TicketItem): boolean {
  if (spec.status && t.status !== spec.status) return false;
  if (spec.isGroup !== undefined && t.isGroup !== spec.isGroup) return false;
  if (spec.status === "open" && !spec.filters.showAll && !t.isGroup && t.userId !== spec.userId) return false;
  return !spec.search;
}

/** Loads and keeps one ticket list live. */
export function useTicketList(spec: ListSpec): TicketList {
  const [tickets, setTickets] = useState<TicketItem[]>([]);
  const [count, setCount] = useState(0);
  const [hasMore, setHasMore] = useState(false);
  const [partial, setPartial] = useState(false);
  const [status, setStatus] = useState<TicketList["status"]>("loading");
  const pages = useRef(1);
  const generation = useRef(0);
  const key = JSON.stringify([spec.status, spec.isGroup, spec.filters, spec.enabled]);
  const specRef = useRef(spec);
  specRef.current = spec;
  /** Contact edits heard live: rows fetched before one show it (contact_patch.ts). */
  const heard = useRef(new HeardContacts(withContact));

  const fetchPages = useCallback(async (pageNumber: number, limit: number) => {
    const s = specRef.current;
    const f = s.filters;
    return await get<{ tickets: TicketItem[]; count: number; hasMore: boolean; partial?: boolean }>(
      "/tickets" + query({
        status: s.status,
        isGroup: s.isGroup === undefined ? undefined : String(s.isGroup),
        searchParam: f.searchParam,
        tags: f.tags.length ? f.tags : undefined,
        users: f.users.length ? f.users : undefined,
        whatsappIds: f.whatsappIds.length ? f.whatsappIds : undefined,
        queueIds: f.queueIds.length ? f.queueIds : undefined,
        showAll: f.showAll ? "true" : undefined,
        order: f.order,
        pageNumber,
        limit,
      }),
    );
  }, []);

  /** Reloads everything loaded so far in one call (keeps the scroll position). */
  const reload = useCallback(() => {
    if (!specRef.current.enabled) return;
    const gen = ++generation.current;
    fetchPages(1, pages.current * PAGE).then((r) => {
      if (gen !== generation.current) return;
      setTickets(r.tickets.map((t) => heard.current.fresh(t)));
      setCount(r.count);
      setHasMore(r.hasMore);
      setPartial(r.partial === true);
      setStatus("ready");
    }, () => gen === generation.current && setStatus((s) => (s === "ready" ? s : "error")));
  }, [fetchPages]);

  useEffect(() => {
    pages.current = 1;
    setStatus("loading");
    setTickets([]);
    setPartial(false);
    if (!spec.enabled) return;
    const timer = setTimeout(reload, spec.filters.searchParam ? 500 : 0);
    return () => clearTimeout(timer);
  }, [key]);

  const loadMore = useCallback(() => {
    if (!hasMore || status !== "ready") return;
    const gen = generation.current;
    const next = pages.current + 1;
    fetchPages(next, PAGE).then((r) => {
      if (gen !== generation.current) return;
      pages.current = next;
      setTickets((old) => [...old, ...r.tickets.filter((t) => !old.some((o) => o.id === t.id)).map((t) => heard.current.fresh(t))]);
      setHasMore(r.hasMore);
      setCount(r.count);
    }, () => {});
  }, [hasMore, status, fetchPages]);

  useEffect(() => {
    if (!spec.enabled || !spec.status || spec.search) return;
    const status = spec.status;
    return retain(`tickets-${status}`, { type: "joinTickets", status }, { type: "leaveTickets", status });
  }, [spec.enabled, spec.status, spec.search]);

  useEffect(() => {
    if (!spec.enabled) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const later = () => {
      clearTimeout(timer);
      timer = setTimeout(reload, 500);
    };
    const apply = (t: TicketItem) =>
      setTickets((old) => {
        const rest = old.filter((o) => o.id !== t.id);
        if (!belongs(specRef.current, t)) {
          if (rest.length !== old.length) setCount((c) => Math.max(0, c - 1));
          return rest;
        }
        if (rest.length === old.length) setCount((c) => c + 1);
        const sign = specRef.current.filters.order === "ASC" ? -1 : 1;
        return [heard.current.fresh(t), ...rest].sort((a, b) => sign * (Date.parse(b.updatedAt ?? "") - Date.parse(a.updatedAt ?? "") || b.id - a.id));
      });
    const remove = (id: number) =>
      setTickets((old) => {
        const rest = old.filter((o) => o.id !== id);
        if (rest.length !== old.length) setCount((c) => Math.max(0, c - 1));
        return rest;
      });
    const offs = [
      onChannel(channelName(spec.companyId, "ticket"), (data) => {
        const d = data as { action?: string; ticket?: TicketItem; ticketId?: number };
        if (d.action === "update" && d.ticket) apply(d.ticket);
        else if ((d.action === "delete" || d.action === "removeFromList") && d.ticketId) remove(d.ticketId);
        else if (d.action === "updateUnread" && d.ticketId) {
          setTickets((old) => old.map((o) => (o.id === d.ticketId ? { ...o, unreadMessages: 0 } : o)));
        }
        later();
      }),
      onChannel(channelName(spec.companyId, "appMessage"), (data) => {
        const d = data as { action?: string; ticket?: TicketItem };
        if (d.action === "create" && d.ticket && "status" in d.ticket) apply(d.ticket);
        later();
      }),
      onContactUpdate(spec.companyId, (contact) => {
        heard.current.hear(contact);
        setTickets((old) => {
          const next = old.map((o) => withContact(o, contact));
          return next.some((o, i) => o !== old[i]) ? next : old;
        });
      }),
      onChannel("resync", reload),
      onChannel("socket:open", later),
    ];
    return () => {
      clearTimeout(timer);
      offs.forEach((off) => off());
    };
  }, [key, reload]);

  useEffect(() => {
    if (!partial) return;
    const timer = setTimeout(reload, PARTIAL_RETRY_MS);
    return () => clearTimeout(timer);
  }, [partial, tickets, reload]);

  return { tickets, count, hasMore, partial, status, loadMore, reload };
}
