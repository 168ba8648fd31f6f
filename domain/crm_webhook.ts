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

/**
 * The keyword → code row of a connection's table (spec 001 §2.4) that a message's text
 * matches, for the payload of a CRM webhook (server/webhooks/connection.ts). The spec shows
 * only the table, so the match is ours: the keyword as a whole word or phrase of the text,
 * ignoring case and accents ("Orçamento" matches "quero um orcamento!", "orc" does not), and
 * the first matching row in the table's order wins, so an admin orders rows by priority.
 */
export function keywordCodeFor(
  text: string,
  keywords: readonly { keyword: string; code: string }[],
): { keyword: string; code: string } | null {
  const haystack = ` ${fold(text)} `;
  for (const row of keywords) {
    const needle = fold(row.keyword).trim();
    if (needle === "") continue;
    const at = haystack.indexOf(needle);
    for (let i = at; i >= 0; i = haystack.indexOf(needle, i + 1)) {
      if (!wordChar(haystack[i - 1]) && !wordChar(haystack[i + needle.length])) return row;
    }
  }
  return null;
}

/** Lower case without accents, whitespace runs as one space. */
function fold(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().replace(/\s+/g, " ");
}

function wordChar(ch: string | undefined): boolean {
  return ch !== undefined && /[\p{L}\p{N}_]/u.test(ch);
}
