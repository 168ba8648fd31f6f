/**
 * The report's reads of a campaign (GET /campaigns/{id}/report, #19), none of which scans
 * every row on a plain read:
 * - the counts are the actor's kept tally (actor.ts module doc): O(1);
 * - with no search, a filter's total is its tally too, and a page with no filter is one KV
 *   range read of its slice, found through the actor's in-memory row index (ids in key
 *   order). The index is built once per activation on the first read and then kept by
 *   every claim; KV alone cannot start a list at the n-th key, and the claim order is not
 *   an offset of the entry ids (invalid entries are skipped, a list change mixes two lists);
 * - a status filter reads rows in order only until its page is full (what the filter needs),
 *   unless its total is every row's (delivered, once all went out), which pages as "all";
 * - a search reads every row (number or name may match anywhere), as before.
 */
import type { CampaignShipping } from "../../domain/campaign.ts";
import { type CampaignReportQuery, matchesShippingFilter, shippingPage } from "../../domain/campaign_report.ts";
import type { ActorSystem } from "../_runtime/system.ts";
import { campaignsActor, type CampaignsState, type StoredCampaign } from "./actor.ts";
import { shippingPrefix } from "./keys.ts";
import { shippingMatches, shippingRange, shippingRows } from "./rows.ts";

export interface ShippingPage {
  rows: CampaignShipping[];
  count: number;
  hasMore: boolean;
}

/** One page of the detail table (domain/campaign_report.ts semantics; see the module doc). */
export async function shippingPageOf(system: ActorSystem, c: StoredCampaign, q: CampaignReportQuery): Promise<ShippingPage> {
  const kv = system.kv;
  if (q.searchParam.trim() !== "") {
    return shippingPage(await shippingRows(kv, c.companyId, c.id), q);
  }
  const count = c.engine.tally[q.status];
  const from = (q.pageNumber - 1) * q.pageSize;
  const take = Math.max(0, Math.min(q.pageSize, count - from));
  let rows: CampaignShipping[];
  // A filter every row passes (delivered, once all went out) pages as "all" does.
  const ids = count === c.engine.tally.all && take > 0 ? await rowIndexOf(system, c) : undefined;
  if (ids) {
    const slice = ids.slice(from, from + take);
    rows = slice.length === 0 ? [] : await shippingRange(kv, c.companyId, c.id, slice[0], slice[slice.length - 1], slice.length);
  } else {
    rows = await shippingMatches(kv, c.companyId, c.id, (r) => matchesShippingFilter(r, q.status), from, take);
  }
  return { rows, count, hasMore: from + rows.length < count };
}

/**
 * Campaign `c`'s row ids in key order, from the actor's index, building it on first use:
 * the actor starts noting claims, the rows' keys are scanned once, and the two are merged in
 * the actor, so a claim during the scan is never lost. Undefined while another read builds it.
 */
async function rowIndexOf(system: ActorSystem, c: StoredCampaign): Promise<number[] | undefined> {
  const ref = system.ref(campaignsActor, c.companyId);
  const built = (await ref.peek<CampaignsState>()).rowIndex.get(c.id);
  if (built) return built;
  if (!await ref.ask("indexStart", { id: c.id })) return undefined;
  let ids: number[] | null = [];
  try {
    for await (const e of system.kv.list({ prefix: shippingPrefix(c.companyId, c.id) }, { batchSize: 1000 })) ids.push(e.key[3] as number);
  } catch (error) {
    ids = null;
    throw error;
  } finally {
    await ref.ask("indexDone", { id: c.id, ids });
  }
  return (await ref.peek<CampaignsState>()).rowIndex.get(c.id);
}
