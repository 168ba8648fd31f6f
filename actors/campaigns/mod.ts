/** Campaigns of a company (issue #19): what other areas call. */
import type { ActorSystem } from "../_runtime/system.ts";
import { type CampaignShipping, isPositiveConfirmation } from "../../domain/campaign.ts";
import { campaignsActor, type CampaignsState, type StoredCampaign } from "./actor.ts";
import { awaitingKey, shippingKey, shippingPrefix } from "./keys.ts";

export { campaignMissing, campaignsActor, type CampaignsState, sendKey, type StoredCampaign } from "./actor.ts";
export { bindCampaignPorts, type CampaignPorts, campaignPorts, type CampaignSend, type ContactListEntry, type ContactListSource } from "./ports.ts";
export { campaignSettingsKey, shippingPrefix } from "./keys.ts";

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

/** The shipping rows of a campaign (one KV range read), ascending by contact entry. */
export async function shippingRows(kv: Deno.Kv, companyId: number, campaignId: number): Promise<CampaignShipping[]> {
  const rows: CampaignShipping[] = [];
  for await (const e of kv.list<CampaignShipping>({ prefix: shippingPrefix(companyId, campaignId) })) rows.push(e.value);
  return rows;
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
  const row = await system.kv.get<CampaignShipping>(shippingKey(companyId, campaignId, rowId));
  if (!row.value) return false;
  return await campaignsOf(system, companyId).ask("confirmed", { id: campaignId, rowId, number, row: row.value });
}
