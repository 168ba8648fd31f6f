/** What the benches do with a server they started: log in, read its memory. */
import { BENCH_PASSWORD } from "./args.ts";

/** A bearer token for `email` (the benches' stores share one password). */
export async function login(base: string, email: string, password = BENCH_PASSWORD): Promise<string> {
  const r = await fetch(`${base}/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  if (!r.ok) throw new Error(`Login ${email}: ${r.status} ${await r.text()}`);
  return (await r.json()).token;
}

/** Resident memory of process `pid` now and at its peak, in MB (Linux /proc). */
export function rssOf(pid: number): { rss: number; peak: number } {
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  const kb = (key: string) => Number(status.match(new RegExp(`${key}:\\s+(\\d+)`))?.[1] ?? 0);
  return { rss: kb("VmRSS") / 1024, peak: kb("VmHWM") / 1024 };
}
