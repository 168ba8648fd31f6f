/**
 * `Idempotency-Key` for `POST /api/messages/send`: a request retried with the same key (a
 * client that lost the answer) sends once and gets the first answer again, marked with the
 * header `Idempotent-Replayed: true`. Follows the IETF draft "The Idempotency-Key HTTP
 * Header Field": the same key with a different request is 422, and a key whose first request
 * is still running on another server (or was cut off by a crash) is 409 with Retry-After.
 *
 * Records live in KV under `["api_idempotency", companyId, whatsappId, key]` with an expiry
 * (KV deletes them): a reservation written with a check before anything is sent (2 minutes)
 * and the answer once it is known (24 hours). They are not in the same atomic as the stored
 * message: that write is the messages actor's, inside its group commit, and KV's expiry is
 * not one of the runtime's mutations. The reservation closes the gap instead: a crash between
 * the message's commit and the answer's write leaves the reservation, so a retry within 2
 * minutes is refused (409), never sent twice; after that it is sent again. Only successes are
 * kept: a refused request (bad number, connection down) sent nothing, and a retry with the
 * same key may succeed later.
 */
import { AppError } from "../../domain/errors.ts";

/** An answer to replay. */
export interface Reply {
  status: number;
  body: unknown;
}

type Stored =
  | { state: "pending"; fingerprint: string }
  | { state: "done"; fingerprint: string; reply: Reply };

const PENDING_MS = 2 * 60_000;
const DONE_MS = 24 * 3600_000;

/** Requests of this process still running, by KV key: a concurrent retry waits for them. */
const running = new WeakMap<Deno.Kv, Map<string, Promise<Reply>>>();

const mismatch = () =>
  new AppError("ERR_CONFLICT", {
    status: 422,
    message: "This Idempotency-Key was used with a different request",
  });

const inProgress = () =>
  new AppError("ERR_CONFLICT", {
    status: 409,
    message: "A request with this Idempotency-Key is still in progress; retry later",
    extra: { retryAfter: 2 },
  });

/**
 * Runs `run` once per `key` within `scope` (company, connection), or replays its answer.
 * Without a key, just runs it. `replayed` says the answer is a stored one.
 */
export async function idempotent(
  kv: Deno.Kv,
  scope: { companyId: number; whatsappId: number },
  key: string | undefined,
  fingerprint: string,
  run: () => Promise<Reply>,
): Promise<Reply & { replayed: boolean }> {
  if (key === undefined) return { ...(await run()), replayed: false };
  const kvKey: Deno.KvKey = ["api_idempotency", scope.companyId, scope.whatsappId, key];
  const id = JSON.stringify(kvKey);
  let local = running.get(kv);
  if (!local) running.set(kv, local = new Map());

  for (let attempt = 0; attempt < 5; attempt++) {
    const entry = await kv.get<Stored>(kvKey);
    if (entry.value) {
      if (entry.value.fingerprint !== fingerprint) throw mismatch();
      if (entry.value.state === "done") return { ...entry.value.reply, replayed: true };
      const first = local.get(id);
      if (!first) throw inProgress();
      return { ...(await first), replayed: true };
    }
    const pending: Stored = { state: "pending", fingerprint };
    const reserved = await kv.atomic().check(entry).set(kvKey, pending, { expireIn: PENDING_MS }).commit();
    if (!reserved.ok) continue;
    const work = run();
    local.set(id, work);
    try {
      const reply = await work;
      const done: Stored = { state: "done", fingerprint, reply };
      await kv.set(kvKey, done, { expireIn: DONE_MS });
      return { ...reply, replayed: false };
    } catch (error) {
      await kv.delete(kvKey).catch(() => {});
      throw error;
    } finally {
      local.delete(id);
    }
  }
  throw inProgress();
}
