/**
 * The campaign report's detail table (issue #19, spec 002 §2.4) served a page at a time:
 * `GET /campaigns/{id}/report?pageNumber&pageSize&searchParam&status`. A 10,000-contact
 * campaign must not send 10,000 rows to a browser that shows 50. The status filters use the
 * same tests as the report's cards, so "confirmed" lists as many rows as its card counts (a
 * confirmed contact that then got its message is in both "confirmed" and "delivered").
 */
import { z } from "zod";
import type { CampaignShipping } from "./campaign.ts";
import { matchesSearch, paginate } from "./paging.ts";

/** Rows a page can hold (the page's pager offers these). */
export const SHIPPING_PAGE_SIZES = [20, 50, 100] as const;
export const SHIPPING_DEFAULT_PAGE_SIZE = 50;

/** The detail table's status filter: every row, or the rows one card counts. */
export const SHIPPING_FILTERS = ["all", "pending", "requested", "confirmed", "delivered", "failed"] as const;
export type ShippingFilter = (typeof SHIPPING_FILTERS)[number];

/** The report's query; an unknown page or size falls back to the defaults. */
export const CampaignReportQuery = z.object({
  searchParam: z.string().trim().max(200).default(""),
  status: z.enum(SHIPPING_FILTERS).default("all"),
  pageNumber: z.coerce.number().int().min(1).catch(1).default(1),
  pageSize: z.coerce.number().int().refine((n) => (SHIPPING_PAGE_SIZES as readonly number[]).includes(n), {
    message: `pageSize must be one of ${SHIPPING_PAGE_SIZES.join(", ")}`,
  }).default(SHIPPING_DEFAULT_PAGE_SIZE),
});
export type CampaignReportQuery = z.infer<typeof CampaignReportQuery>;

/** Whether `row` is one `filter` shows: the card's own test ("pending": neither sent nor failed yet). */
export function matchesShippingFilter(row: CampaignShipping, filter: ShippingFilter): boolean {
  switch (filter) {
    case "all":
      return true;
    case "pending":
      return row.deliveredAt === null && row.error === null;
    case "requested":
      return row.confirmationRequestedAt !== null;
    case "confirmed":
      return row.confirmedAt !== null;
    case "delivered":
      return row.deliveredAt !== null;
    case "failed":
      return row.error !== null;
  }
}

/**
 * How many rows each filter (and so each card) shows, kept by the campaigns actor as rows
 * change so a report read costs no row scan (#19). Built only from `matchesShippingFilter`,
 * so a card, its filter's total and the kept count cannot disagree.
 */
export type ShippingTally = Record<ShippingFilter, number>;

export const emptyTally = (): ShippingTally => ({ all: 0, pending: 0, requested: 0, confirmed: 0, delivered: 0, failed: 0 });

/** Adds (`sign` 1) or removes (-1) `row` from `tally`, in place. */
export function tallyRow(tally: ShippingTally, row: CampaignShipping, sign: 1 | -1): void {
  for (const f of SHIPPING_FILTERS) if (matchesShippingFilter(row, f)) tally[f] += sign;
}

/** The tally of `rows` counted from scratch (the rebuild, and the tests' recount). */
export function tallyRows(rows: Iterable<CampaignShipping>): ShippingTally {
  const tally = emptyTally();
  for (const row of rows) tallyRow(tally, row, 1);
  return tally;
}

/** The rows of one page of the report (rows in the engine's order, ascending contact entry). */
export function shippingPage(rows: readonly CampaignShipping[], q: CampaignReportQuery) {
  const hits = rows.filter((r) => matchesShippingFilter(r, q.status) && matchesSearch(q.searchParam, r.number, r.name));
  return paginate(hits, q.pageNumber, q.pageSize);
}
