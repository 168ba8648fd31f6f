/**
 * The kanban board's state: lanes (GET /tags/kanban) and cards (GET /tickets/kanban) for the
 * current filters, kept live, and the card move of spec 002 §2.10 (DELETE /ticket-tags then
 * PUT /ticket-tags/{tagId}, with the two §8 toasts).
 *
 * Live: every ticket change comes on `company-{id}-ticket` (tag changes included), so a
 * card moves on every open board; a card's event lacks the contact's extra info, which is
 * kept from the board and refreshed by `company-{id}-contact`; a ticket the board does not
 * hold yet makes it refetch (the server applies the filters and visibility; at most one
 * refetch per 300 ms, none while a search is shown); a tag change
 * reloads the lanes; a socket `resync` reloads everything.
 *
 * A move shows at once. Its two calls publish two events (untagged, then in the new lane),
 * which may arrive after the replies: until the events agree with the move (or 5 s pass) the
 * card keeps the tags the move gave it, so it never jumps back through the untagged lane.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { boardLanes, type LaneTag, lanesOf, tagsAfterMove, UNTAGGED_LANE } from "../../domain/kanban_board.ts";
import { api, ApiError, get } from "../lib/api.ts";
import { t } from "../lib/i18n.ts";
import { manager as isManager, type SessionUser } from "../lib/session.ts";
import { channelName, onChannel, startSocket } from "../lib/socket.ts";
import { showToast, toastError } from "../lib/toast.ts";
import type { TicketItem } from "../tickets/types.ts";
import { HeardContacts } from "../tickets/contact_patch.ts";
import { localDayBound } from "../reports/query.ts";
import { type KanbanFilters, kanbanQuery, NO_KANBAN_FILTERS } from "./query.ts";

/** The board's first data, as the route reads it on the server. */
export interface KanbanData {
  lanes: LaneTag[];
  tickets: TicketItem[];
}

type Tags = TicketItem["tags"];
type Status = "loading" | "ready" | "error";

const SETTLE_MS = 5000;
const RELOAD_MS = 300;
const SEARCH_DEBOUNCE_MS = 500;

function sameLanes(a: Tags, b: Tags, kanbanIds: ReadonlySet<number>): boolean {
  return lanesOf(a, kanbanIds).join() === lanesOf(b, kanbanIds).join();
}

/** The extra info of a card's contact (GET /tickets/kanban adds it; events do not). */
export function extraInfoOf(ticket: TicketItem): Array<{ name: string; value: string }> {
  const contact = ticket.contact;
  return contact && "extraInfo" in contact ? contact.extraInfo : [];
}

/** What a `company-{id}-contact` update tells a card. */
interface BoardContact {
  id: number;
  name: string;
  number: string;
  extraInfo?: Array<{ name: string; value: string }>;
}

/** `card` with the contact edit `c` when it is that contact's card (the extra info kept when the edit has none). */
function withBoardContact(card: TicketItem, c: BoardContact): TicketItem {
  if (card.contact?.id !== c.id) return card;
  return { ...card, contact: { ...card.contact, name: c.name, number: c.number, extraInfo: c.extraInfo ?? extraInfoOf(card) } };
}

/** The hook; see the module doc. */
export function useBoard(initial: KanbanData | null, viewer: SessionUser | null) {
  const manager = viewer ? isManager(viewer) : false;
  const [laneTags, setLaneTags] = useState<LaneTag[]>(initial?.lanes ?? []);
  const [tickets, setTickets] = useState<TicketItem[]>(initial?.tickets ?? []);
  const [status, setStatus] = useState<Status>(initial ? "ready" : "loading");
  const [filters, setFilters] = useState<KanbanFilters>(NO_KANBAN_FILTERS);
  const state = useRef({ laneTags, tickets, filters, manager });
  state.current = { laneTags, tickets, filters, manager };
  const settling = useRef(new Map<number, { tags: Tags; until: number }>());
  /** Contact edits heard live: cards fetched before one show it (tickets/contact_patch.ts). */
  const heard = useRef(new HeardContacts<BoardContact>(withBoardContact));
  const request = useRef(0);

  const kanbanIds = () => new Set(state.current.laneTags.map((l) => l.id));

  /** The tags to show for `ticket`: a settling move's until the server agrees. */
  const settled = useCallback((ticket: TicketItem): TicketItem => {
    const move = settling.current.get(ticket.id);
    if (!move) return ticket;
    if (Date.now() > move.until || sameLanes(ticket.tags, move.tags, kanbanIds())) {
      settling.current.delete(ticket.id);
      return ticket;
    }
    return { ...ticket, tags: move.tags };
  }, []);

  const loadTickets = useCallback(async () => {
    const id = ++request.current;
    try {
      const { filters, manager } = state.current;
      const r = await get<{ tickets: TicketItem[] }>(`/tickets/kanban${kanbanQuery(filters, manager)}`);
      if (id !== request.current) return;
      setTickets(r.tickets.map((x) => heard.current.fresh(settled(x))));
      setStatus("ready");
    } catch {
      if (id === request.current) setStatus("error");
    }
  }, []);

  const loadLanes = useCallback(async () => {
    try {
      setLaneTags((await get<{ lista: LaneTag[] }>("/tags/kanban")).lista);
    } catch {
      setStatus("error");
    }
  }, []);

  const reload = useCallback(async () => {
    setStatus((s) => (s === "error" ? "loading" : s));
    await Promise.all([loadLanes(), loadTickets()]);
  }, []);

  // First load when the server had no data; later, a refetch per filter change (search debounced).
  const lastSearch = useRef(filters.searchParam);
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      if (!initial) reload();
      return;
    }
    const typed = filters.searchParam !== lastSearch.current;
    lastSearch.current = filters.searchParam;
    const timer = setTimeout(loadTickets, typed ? SEARCH_DEBOUNCE_MS : 0);
    return () => clearTimeout(timer);
  }, [filters]);

  useEffect(() => {
    if (!viewer) return;
    startSocket(viewer.companyId, viewer.id);
    let ticketTimer: ReturnType<typeof setTimeout> | undefined;
    let laneTimer: ReturnType<typeof setTimeout> | undefined;
    // At most one refetch per RELOAD_MS however busy the company is (no debounce starvation).
    const soon = (timer: typeof ticketTimer, run: () => void) => timer ?? setTimeout(run, RELOAD_MS);
    const onBoard = (ticket: TicketItem) => {
      if (ticket.status !== "open" && ticket.status !== "pending") return false;
      const { filters, manager } = state.current;
      if (manager) return filters.users.length === 0 || (ticket.userId !== null && filters.users.includes(ticket.userId));
      // A plain user's board follows its inbox (server/api/kanban.ts): a colleague's open
      // conversation, whose events reach this socket, is not on it.
      return ticket.status === "pending" || ticket.userId === viewer.id || ticket.isGroup;
    };
    /** Whether a ticket the board lacks may match the filters (a search result is a snapshot). */
    const mayJoin = (ticket: TicketItem) => {
      const { searchParam, dateFrom, dateUntil } = state.current.filters;
      if (searchParam.trim()) return false;
      const from = localDayBound(dateFrom, false);
      const until = localDayBound(dateUntil, true);
      const created = ticket.createdAt ?? "";
      return (!from || created >= from) && (!until || created <= until);
    };
    const drop = (id: number) => setTickets((old) => old.filter((x) => x.id !== id));
    const offTicket = onChannel(channelName(viewer.companyId, "ticket"), (data) => {
      const d = data as { action?: string; ticket?: TicketItem; ticketId?: number };
      if (d.action === "delete" && typeof d.ticketId === "number") return drop(d.ticketId);
      if (d.action !== "update" || !d.ticket) return;
      const ticket = d.ticket;
      const known = state.current.tickets.some((x) => x.id === ticket.id);
      if (!onBoard(ticket)) return known ? drop(ticket.id) : undefined;
      if (!known) {
        if (mayJoin(ticket)) {
          ticketTimer = soon(ticketTimer, () => {
            ticketTimer = undefined;
            loadTickets();
          });
        }
        return;
      }
      setTickets((old) =>
        old.map((x) => {
          if (x.id !== ticket.id) return x;
          const contact = ticket.contact ? { ...ticket.contact, extraInfo: extraInfoOf(x) } : x.contact;
          return heard.current.fresh(settled({ ...ticket, contact }));
        })
      );
    });
    const offContact = onChannel(channelName(viewer.companyId, "contact"), (data) => {
      const d = data as { action?: string; contact?: BoardContact };
      const c = d.contact;
      if (d.action !== "update" || !c) return;
      heard.current.hear(c);
      setTickets((old) => old.map((x) => withBoardContact(x, c)));
    });
    const offTag = onChannel(channelName(viewer.companyId, "tag"), () => {
      laneTimer = soon(laneTimer, () => {
        laneTimer = undefined;
        loadLanes();
      });
    });
    const offResync = onChannel("resync", () => reload());
    return () => {
      clearTimeout(ticketTimer);
      clearTimeout(laneTimer);
      offTicket();
      offContact();
      offTag();
      offResync();
    };
  }, [viewer?.id, viewer?.companyId]);

  /** Moves card `ticketId` to lane `to` (a kanban tag id, or UNTAGGED_LANE). */
  const move = useCallback(async (ticketId: number, to: number) => {
    const ticket = state.current.tickets.find((x) => x.id === ticketId);
    const target = to === UNTAGGED_LANE ? null : state.current.laneTags.find((l) => l.id === to);
    if (!ticket || target === undefined) return;
    const ids = kanbanIds();
    if (lanesOf(ticket.tags, ids).join() === String(to)) return;
    const tags = tagsAfterMove(ticket.tags, ids, target && { id: target.id, name: target.name, color: target.color });
    settling.current.set(ticketId, { tags, until: Date.now() + SETTLE_MS });
    setTickets((old) => old.map((x) => (x.id === ticketId ? { ...x, tags } : x)));
    try {
      await api("DELETE", `/ticket-tags/${ticketId}`);
      showToast("success", t("kanban.tagRemoved"));
      if (target) {
        await api("PUT", `/ticket-tags/${ticketId}/${target.id}`);
        showToast("success", t("kanban.tagAdded"));
      }
    } catch (error) {
      settling.current.delete(ticketId);
      toastError(error instanceof ApiError ? error.body : error);
      await loadTickets();
    }
  }, []);

  const lanes = useMemo(() => boardLanes(laneTags, tickets, extraInfoOf), [laneTags, tickets]);
  return { lanes, hasLaneTags: laneTags.length > 0, status, filters, setFilters, move, reload, manager };
}

/** What useBoard returns. */
export type Board = ReturnType<typeof useBoard>;
