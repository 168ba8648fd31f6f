/**
 * Searches right after a start (issue #23 §1): the message index is loaded from KV (or, in a
 * store without a saved one, built) in the background from start-up, and a search meanwhile
 * must answer within 50 ms, partially if need be (bench/search_start.ts compares both). This
 * drives `path` (a GET /tickets?searchParam) at `rate` calls/s in an open loop (latency counts
 * from each call's due time, bench/lib/drive.ts) until `windowMs` after the server listened,
 * then polls every `pollMs` until an answer says `partial: false`.
 */
import { drive, quantile } from "./drive.ts";
import { HttpConnection } from "./http_client.ts";

/** What the probe saw. */
export interface StartSearch {
  /** Milliseconds from listening to the first complete answer (null: not within the timeout). */
  readyMs: number | null;
  /** Calls in the window, how many answered partial, and their latency (ms). */
  calls: number;
  partial: number;
  p50: number;
  p99: number;
  max: number;
}

const decoder = new TextDecoder();

export async function probeStartSearch(options: {
  hostname: string;
  port: number;
  path: string;
  headers: Record<string, string>;
  /** `performance.now()` of this process when the server was listening. */
  listeningAt: number;
  windowMs?: number;
  rate?: number;
  pollMs?: number;
  timeoutMs?: number;
}): Promise<StartSearch> {
  const { hostname, port, path, headers, listeningAt } = options;
  const windowMs = options.windowMs ?? 10_000;
  const rate = options.rate ?? 20;
  const workers = 4;
  const connections = await Promise.all(
    Array.from({ length: workers }, () => HttpConnection.open(hostname, port)),
  );
  let readyAt: number | null = null;
  let partial = 0;
  /** Sends one search; notes whether it was partial and when the first complete one came. */
  const search = async (connection: HttpConnection): Promise<void> => {
    const reply = await connection.request("GET", path, headers);
    if (reply.status !== 200) throw new Error(`${path}: ${reply.status} ${decoder.decode(reply.body)}`);
    if ((JSON.parse(decoder.decode(reply.body)) as { partial?: boolean }).partial === true) partial++;
    else readyAt ??= performance.now();
  };
  try {
    const calls = Math.max(0, Math.floor(((listeningAt + windowMs - performance.now()) / 1000) * rate));
    const { latencies } = await drive(calls, workers, (_, worker) => search(connections[worker]), rate);
    const inWindow = { calls, partial, p50: quantile(latencies, 0.5), p99: quantile(latencies, 0.99), max: latencies[calls - 1] };
    const deadline = performance.now() + (options.timeoutMs ?? 300_000);
    while (readyAt === null && performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 100));
      await search(connections[0]);
    }
    return { readyMs: readyAt === null ? null : readyAt - listeningAt, ...inWindow };
  } finally {
    for (const connection of connections) connection.close();
  }
}
