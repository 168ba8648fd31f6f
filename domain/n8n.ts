/**
 * n8n answers (issue #17): what a workflow's webhook returns depends on how the workflow ends
 * ("Respond to Webhook" with the first item or all items, or the last node's output, such as an
 * AI agent's `{ output }`), so the reply text is looked for where those shapes put it. Pure;
 * the HTTP call is `server/integrations/n8n.ts`.
 */

/** Keys that carry a reply, most specific first. */
const TEXT_KEYS = ["output", "text", "message", "answer", "reply", "response", "content", "body"] as const;

/** Keys under which n8n nests an item's data. */
const NESTED_KEYS = ["json", "data"] as const;

/**
 * The reply text of an n8n answer body, or null when it carries none: a string; an object's
 * first string under TEXT_KEYS (also under `json`/`data`); an array's items joined by a blank line.
 */
export function n8nAnswerText(body: unknown, depth = 0): string | null {
  if (typeof body === "string") return body.trim() || null;
  if (depth > 3 || body === null || typeof body !== "object") return null;
  if (Array.isArray(body)) {
    const parts = body.map((item) => n8nAnswerText(item, depth + 1)).filter((t): t is string => t !== null);
    return parts.length ? parts.join("\n\n") : null;
  }
  const record = body as Record<string, unknown>;
  for (const key of TEXT_KEYS) {
    const value = record[key];
    if (typeof value === "string" && value.trim()) return value.trim();
    if (value !== null && typeof value === "object") {
      const inner = n8nAnswerText(value, depth + 1);
      if (inner) return inner;
    }
  }
  for (const key of NESTED_KEYS) {
    const inner = n8nAnswerText(record[key], depth + 1);
    if (inner) return inner;
  }
  return null;
}

/**
 * The n8n instance's base URL from the `urlN8N` setting, which admins fill with either the
 * instance address or a webhook of it (https://n8n.example.com/webhook/abc): everything from
 * `/webhook`, `/webhook-test` or `/api/` on is dropped, so `{base}/api/v1/workflows` lists the
 * workflows in both cases. Null when the value is not an http(s) URL.
 */
export function n8nBaseUrl(setting: string): string | null {
  let url: URL;
  try {
    url = new URL(setting.trim());
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  const path = url.pathname.replace(/\/(webhook|webhook-test|api)(\/.*)?$/, "").replace(/\/+$/, "");
  return `${url.origin}${path}`;
}
