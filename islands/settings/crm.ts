/**
 * Whether a connection's webhook points at a CRM API, which shows the keyword/code tab of
 * spec 001 §2.4 (the spec does not name the CRM). TODO(#16): the settings work decides the rule.
 */

/** Whether any connection's webhook points at a CRM API. */
export function crmWebhookIn(connections: { webhook?: string | null }[]): boolean {
  return connections.some((c) => isCrmWebhook(c.webhook ?? ""));
}

/** Whether `url` is a CRM API's webhook. */
export function isCrmWebhook(url: string): boolean {
  return url !== "" && false;
}
