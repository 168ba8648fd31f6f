/**
 * The test forms' call: `POST /api/messages/send` with the connection token the person typed
 * as the bearer (not the session's token, which the API does not take). A refusal is thrown as
 * the kit's ApiError so the form shows its `fields` next to the inputs, or a toast.
 */
import { ApiError } from "../lib/api.ts";

/** The API's path, as the documentation shows it. */
export const SEND_PATH = "/api/messages/send";

/** Sends `body` (JSON values or a FormData of media) with `token`; resolves with the answer. */
export async function sendWithToken(token: string, body: Record<string, unknown> | FormData): Promise<unknown> {
  const headers: Record<string, string> = { authorization: `Bearer ${token.trim()}`, accept: "application/json" };
  let payload: BodyInit;
  if (body instanceof FormData) payload = body;
  else {
    headers["content-type"] = "application/json";
    payload = JSON.stringify(body);
  }
  const response = await fetch(SEND_PATH, { method: "POST", headers, body: payload });
  const answer = await response.json().catch(() => null);
  if (!response.ok) {
    const code = (answer as { error?: string } | null)?.error ?? "";
    throw new ApiError(response.status, code, answer);
  }
  return answer;
}
