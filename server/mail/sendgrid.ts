/**
 * SendGrid's v3 mail/send over fetch. The API's base URL comes from SENDGRID_API_URL when
 * set (tests point it at a local fake; a proxy or SendGrid's EU host in production), read at
 * each send like the settings themselves.
 */
import type { Mail } from "./mod.ts";

const DEFAULT_BASE = "https://api.sendgrid.com";
const TIMEOUT_MS = 15_000;

/** The API base URL in use. */
export function sendgridBaseUrl(): string {
  return (Deno.env.get("SENDGRID_API_URL") || DEFAULT_BASE).replace(/\/+$/, "");
}

/** Sends `mail` from `from` with API key `key`; throws with SendGrid's status on refusal. */
export async function sendWithSendgrid(key: string, from: string, mail: Mail): Promise<void> {
  const response = await fetch(`${sendgridBaseUrl()}/v3/mail/send`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({
      personalizations: [{ to: [{ email: mail.to }] }],
      from: { email: from },
      subject: mail.subject,
      content: [{ type: "text/plain", value: mail.text }, { type: "text/html", value: mail.html }],
    }),
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  const detail = await response.text();
  if (!response.ok) throw new Error(`SendGrid answered ${response.status}: ${detail.slice(0, 200)}`);
}
