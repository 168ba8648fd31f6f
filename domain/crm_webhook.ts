/**
 * When a connection's webhook "points at a CRM API" (spec 001 §2.4), which shows the
 * keyword/code tab of /settings. The spec names no CRM, so the rule is about the shape of the
 * address: an http(s) URL with a path segment `api` (e.g. https://crm.example.com/api/v1/hooks).
 * That is where a CRM takes calls from other systems, and it is what sets such a target apart
 * from a generic automation hook (n8n's /webhook/…, a request bin): the keyword → code table
 * only means something to a system that files the conversation under its own codes. Saying
 * "any webhook" would show the tab to every company that only forwards messages; naming one
 * vendor's host would tie the product to it. Pure: read by the route and the island alike.
 */

/** Whether `url` is a CRM API's webhook (see the module doc). */
export function isCrmWebhook(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return false;
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return false;
  return parsed.pathname.split("/").some((segment) => segment.toLowerCase() === "api");
}

/** Whether any of `connections` has a CRM API webhook. */
export function crmWebhookIn(connections: readonly { webhook?: string | null }[]): boolean {
  return connections.some((c) => isCrmWebhook(c.webhook ?? ""));
}
