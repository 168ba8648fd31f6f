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

/**
 * CPU time process `pid` ("self" for this one) has used so far, user and system, in ms
 * (Linux /proc). The benches put a load's CPU per call beside its tail: the load generator
 * and the server share the machine's cores, so a costly client is part of what a tail shows.
 */
export function cpuMsOf(pid: number | "self"): { user: number; system: number } {
  // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
  const fields = Deno.readTextFileSync(`/proc/${pid}/stat`).split(") ")[1].split(" ");
  const tick = 1000 / 100; // USER_HZ is 100 on Linux
  return { user: Number(fields[11]) * tick, system: Number(fields[12]) * tick };
}
