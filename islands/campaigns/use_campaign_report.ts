/**
 * The campaign report's state (/campaign/{id}/report): the campaign, its counts and one page
 * of the detail rows from GET /campaigns/{id}/report, with the search (500 ms of quiet, spec
 * 001 §9), the status filter, the page and its size. The first page comes from the
 * server-rendered props; a newer request wins over an older answer.
 *
 * Live: every `company-{id}-campaign` event of this campaign reads the report again with the
 * same page and filters (at most once a second: the engine emits one per send; and never more
 * than a third of the time: the counts are kept, but a search or a deep status page still
 * reads many rows of a big campaign), silently, so
 * the bar, the cards and the rows on screen move without the table flashing or the page
 * jumping; an event saying FINALIZADA reads it again 5 s later (§4, §9).
 * The rows are offered as the kit's PagedList (one page, nothing to scroll to) for DataTable.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { CampaignCounts } from "../../domain/campaign.ts";
import { SHIPPING_DEFAULT_PAGE_SIZE, type ShippingFilter } from "../../domain/campaign_report.ts";
import { get, query } from "../lib/api.ts";
import { channelName, onChannel, startSocket } from "../lib/socket.ts";
import type { ListStatus, PagedList } from "../ui/use_paged_list.ts";
import { useAfterFirst } from "../ui/use_after_first.ts";
import type { CampaignRow } from "./types.ts";

/** One contact's shipping row as the report answers it (dates as ISO text). */
export interface ShippingRow {
  id: number;
  number: string;
  name: string;
  message: string;
  confirmationMessage: string | null;
  confirmationRequestedAt: string | null;
  confirmedAt: string | null;
  deliveredAt: string | null;
  error: string | null;
}

/** GET /campaigns/{id}/report body. */
export interface CampaignReport {
  campaign: CampaignRow;
  counts: CampaignCounts;
  /** Rows matching the search and status (all pages). */
  total: number;
  hasMore: boolean;
  pageNumber: number;
  pageSize: number;
  shipping: ShippingRow[];
}

/** §9: the report is read again this long after a finish event. */
const FINISH_REFETCH_MS = 5000;
/** Live reads are spaced by at least this much, */
const LIVE_GAP_MS = 1000;
/** …and by this many times what the last read took (a 10,000-row campaign's read is slower). */
const LIVE_COST_FACTOR = 3;
/** Spec 001 §9: the search waits for this much quiet. */
const SEARCH_DEBOUNCE_MS = 500;

const rowId = (r: ShippingRow) => r.id;

interface Query {
  searchParam: string;
  status: ShippingFilter;
  pageNumber: number;
  pageSize: number;
}

/** The report hook; see the module doc. */
export function useCampaignReport(
  campaignId: number,
  initial: CampaignReport | null,
  viewer: { id: number; companyId: number } | null,
) {
  const [report, setReport] = useState<CampaignReport | null>(initial);
  const [status, setStatus] = useState<ListStatus>(initial ? "ready" : "loading");
  const [q, setQ] = useState<Query>({
    searchParam: "",
    status: "all",
    pageNumber: 1,
    pageSize: initial?.pageSize ?? SHIPPING_DEFAULT_PAGE_SIZE,
  });
  const [search, setSearchText] = useState("");
  const current = useRef(q);
  current.current = q;
  const request = useRef(0);

  /** Reads the report for the current query; `silent` (live) keeps the table as it is meanwhile. */
  const load = useCallback(async (silent: boolean) => {
    const id = ++request.current;
    if (!silent) setStatus("loading");
    try {
      const next = await get<CampaignReport>(`/campaigns/${campaignId}/report${query({ ...current.current })}`);
      if (id !== request.current) return;
      setReport(next);
      setStatus("ready");
    } catch {
      if (id === request.current && !silent) setStatus("error");
    }
  }, [campaignId]);

  useAfterFirst(() => load(false), [q], Boolean(initial));

  // The search box applies after the quiet time, from page 1.
  useEffect(() => {
    if (search.trim() === current.current.searchParam) return;
    const timer = setTimeout(() => setQ((old) => ({ ...old, searchParam: search.trim(), pageNumber: 1 })), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [search]);

  useEffect(() => {
    if (!viewer) return;
    startSocket(viewer.companyId, viewer.id);
    let timer: ReturnType<typeof setTimeout> | undefined;
    let finish: ReturnType<typeof setTimeout> | undefined;
    let last = 0;
    let gap = LIVE_GAP_MS;
    const refresh = async () => {
      timer = undefined;
      last = Date.now();
      await load(true);
      gap = Math.max(LIVE_GAP_MS, (Date.now() - last) * LIVE_COST_FACTOR);
    };
    const schedule = () => {
      if (timer === undefined) timer = setTimeout(refresh, Math.max(0, last + gap - Date.now()));
    };
    const off = onChannel(channelName(viewer.companyId, "campaign"), (data) => {
      const event = data as { id?: number; record?: { id?: number; status?: string } };
      if ((event.record?.id ?? event.id) !== campaignId) return;
      schedule();
      if (event.record?.status === "FINALIZADA") {
        clearTimeout(finish);
        finish = setTimeout(() => load(true), FINISH_REFETCH_MS);
      }
    });
    const offResync = onChannel("resync", schedule);
    return () => {
      off();
      offResync();
      clearTimeout(timer);
      clearTimeout(finish);
    };
  }, [viewer?.id, viewer?.companyId, campaignId]);

  const rows = report?.shipping ?? [];
  const total = report?.total ?? 0;
  const list = useMemo<PagedList<ShippingRow>>(() => ({
    rows,
    status,
    hasMore: false,
    count: total,
    search,
    setSearch: setSearchText,
    loadMore: async () => {},
    reload: () => load(false),
    upsert: () => {},
    remove: () => {},
    rowId,
  }), [rows, status, total, search]);

  return {
    report,
    list,
    query: q,
    total,
    setStatusFilter: (filter: ShippingFilter) => setQ((old) => ({ ...old, status: filter, pageNumber: 1 })),
    setPage: (pageNumber: number) => setQ((old) => ({ ...old, pageNumber })),
    setPageSize: (pageSize: number) => setQ((old) => ({ ...old, pageSize, pageNumber: 1 })),
  };
}
