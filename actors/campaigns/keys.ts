/** KV keys of the campaigns area. */
export const campaignKey = (companyId: number, id: number): Deno.KvKey => ["campaign", companyId, id];
export const campaignCounterKey = (companyId: number): Deno.KvKey => ["counter", "campaign", companyId];
export const campaignSettingsKey = (companyId: number): Deno.KvKey => ["campaign_settings", companyId];
/** One contact's shipping row; its id is the contact-list entry's id. */
export const shippingKey = (companyId: number, campaignId: number, rowId: number): Deno.KvKey => [
  "campaign_shipping",
  companyId,
  campaignId,
  rowId,
];
export const shippingPrefix = (companyId: number, campaignId: number): Deno.KvKey => ["campaign_shipping", companyId, campaignId];
/** The row waiting for a confirmation reply from `number` (the inbound hook's lookup). */
export const awaitingKey = (companyId: number, number: string): Deno.KvKey => ["campaign_awaiting", companyId, number];
