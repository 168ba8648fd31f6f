/** What the benches share of their command lines and their seeded company. */

/** The seeded staff's password and the bench servers' token secret. */
export const BENCH_PASSWORD = "demo1234";
export const BENCH_SECRET = "bench-secret";
/** The word the inbox seed puts in about 1% of the tickets' messages (bench/inbox_seed.ts). */
export const SEARCH_WORD = "reembolso";

/** The number given as `--name=N`, or `fallback`. */
export function flag(name: string, fallback: number): number {
  const arg = Deno.args.find((a) => a.startsWith(`--${name}=`));
  return arg ? Number(arg.split("=")[1]) : fallback;
}
