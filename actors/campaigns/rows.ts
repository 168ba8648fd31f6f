/** Reads of a campaign's shipping rows in KV (ascending by contact entry: the report's order). */
import type { CampaignShipping } from "../../domain/campaign.ts";
import { shippingKey, shippingPrefix } from "./keys.ts";

/** Every shipping row of a campaign (one KV range read). */
export async function shippingRows(kv: Deno.Kv, companyId: number, campaignId: number): Promise<CampaignShipping[]> {
  const rows: CampaignShipping[] = [];
  for await (const e of kv.list<CampaignShipping>({ prefix: shippingPrefix(companyId, campaignId) })) rows.push(e.value);
  return rows;
}

/** The rows with ids from `first` to `last` (inclusive), at most `limit`: one KV range read. */
export async function shippingRange(
  kv: Deno.Kv,
  companyId: number,
  campaignId: number,
  first: number,
  last: number,
  limit: number,
): Promise<CampaignShipping[]> {
  const rows: CampaignShipping[] = [];
  const range = { start: shippingKey(companyId, campaignId, first), end: shippingKey(companyId, campaignId, last + 1) };
  for await (const e of kv.list<CampaignShipping>(range, { limit, batchSize: Math.min(limit, 500) })) rows.push(e.value);
  return rows;
}

/**
 * The `skip`+1-th to `skip`+`take`-th rows that `keep` accepts, reading in key order and
 * stopping as soon as they are found.
 */
export async function shippingMatches(
  kv: Deno.Kv,
  companyId: number,
  campaignId: number,
  keep: (row: CampaignShipping) => boolean,
  skip: number,
  take: number,
): Promise<CampaignShipping[]> {
  const rows: CampaignShipping[] = [];
  let seen = 0;
  if (take <= 0) return rows;
  for await (const e of kv.list<CampaignShipping>({ prefix: shippingPrefix(companyId, campaignId) }, { batchSize: 500 })) {
    if (!keep(e.value)) continue;
    if (seen++ < skip) continue;
    rows.push(e.value);
    if (rows.length === take) break;
  }
  return rows;
}
