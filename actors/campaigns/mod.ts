/** Campaigns of a company (issue #19): what other areas call. */
import type { ActorSystem } from "../_runtime/system.ts";
import { isPositiveConfirmation } from "../../domain/campaign.ts";
import { campaignsActor, type CampaignsState, type StoredCampaign } from "./actor.ts";
import { type ShippingTally, tallyRows } from "../../domain/campaign_report.ts";
import { awaitingKey } from "./keys.ts";
import { shippingRows } from "./rows.ts";

export { campaignAudience, campaignMissing, campaignsActor, type CampaignsState, sendKey, type StoredCampaign } from "./actor.ts";
export {
  bindCampaignPorts,
  type CampaignPorts,
  campaignPorts,
  type CampaignSend,
  type ContactListEntry,
  type ContactListSource,
  type GroupListSource,
} from "./ports.ts";
export { GROUP_ROW_BASE, isGroupRow } from "./group_audience.ts";
export { campaignSettingsKey, shippingPrefix } from "./keys.ts";
export { shippingPageOf, type ShippingPage } from "./report.ts";
export { shippingRows } from "./rows.ts";

/** The company's campaigns actor. */
export function campaignsOf(system: ActorSystem, companyId: number) {
  return system.ref(campaignsActor, companyId);
}

/** The company's campaigns (in memory, no mailbox), for reads. */
export async function campaignsList(system: ActorSystem, companyId: number): Promise<StoredCampaign[]> {
  return [...(await campaignsOf(system, companyId).peek<CampaignsState>()).records.values()];
}

export async function getCampaign(system: ActorSystem, companyId: number, id: number): Promise<StoredCampaign | undefined> {
  return (await campaignsOf(system, companyId).peek<CampaignsState>()).records.get(id);
}

export async function campaignSettingsOf(system: ActorSystem, companyId: number) {
  return (await campaignsOf(system, companyId).peek<CampaignsState>()).settings;
}

/** Stores campaign `id`'s tally if `load` rebuilt it from an older record (no ask otherwise). */
export async function saveRebuiltTally(system: ActorSystem, companyId: number, id: number): Promise<void> {
  if ((await campaignsOf(system, companyId).peek<CampaignsState>()).untallied.has(id)) {
    await campaignsOf(system, companyId).ask("saveTally", { id });
  }
}

/**
 * The tally of a campaign's rows counted from scratch (one scan): what the actor's kept
 * tally must always equal (tests), never read by the report.
 */
export async function recountTally(kv: Deno.Kv, companyId: number, campaignId: number): Promise<ShippingTally> {
  return tallyRows(await shippingRows(kv, companyId, campaignId));
}

/**
 * The inbound hook of the confirmation mode: a positive reply (1/sim/yes) from a number
 * awaiting a campaign confirmation queues that campaign's message. Anything else is left
 * to the conversation as usual. Cheap for other messages: no KV read unless the text is positive.
 */
export async function campaignReply(system: ActorSystem, companyId: number, number: string, text: string): Promise<boolean> {
  if (!isPositiveConfirmation(text)) return false;
  const waiting = await system.kv.get<{ campaignId: number; rowId: number }>(awaitingKey(companyId, number));
  if (!waiting.value) return false;
  const { campaignId, rowId } = waiting.value;
  return await campaignsOf(system, companyId).ask("confirmed", { id: campaignId, rowId, number });
}
