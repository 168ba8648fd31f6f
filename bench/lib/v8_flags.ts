/**
 * V8 flags of `npm start`, read from deno.json's start task so a bench's server process runs
 * with what runs in production (server/main.ts says why they are what they are).
 */
const START_TASK: string = JSON.parse(Deno.readTextFileSync(new URL("../../deno.json", import.meta.url))).tasks.start;

export const PRODUCTION_V8_FLAGS: string = START_TASK.match(/--v8-flags=(\S+)/)?.[1] ?? "";

/**
 * The environment the start task sets before `deno` (`NAME=value` words), for a bench's
 * server process: `DENO_TOKIO_EVENT_INTERVAL` changes when requests are read while background
 * work runs (server/main.ts says why), so a bench without it measures another server.
 */
export const PRODUCTION_ENV: Record<string, string> = Object.fromEntries(
  [...START_TASK.matchAll(/(?:^|\s)([A-Z_][A-Z0-9_]*)=(\S*)(?=\s)/g)].map((m) => [m[1], m[2]]),
);

/**
 * The `--v8-flags=` argument of a bench's server process: production's flags, or the
 * bench's `--server-v8-flags=…` (an A/B of a collector flag), with `--trace-gc` added so the
 * bench can put the collector's work beside each tail (bench/lib/gc_trace.ts).
 */
export function benchServerV8Flags(): string {
  const given = Deno.args.find((a) => a.startsWith("--server-v8-flags="))?.slice("--server-v8-flags=".length);
  return `--v8-flags=${[given ?? PRODUCTION_V8_FLAGS, "--trace-gc"].filter(Boolean).join(",")}`;
}

/** Set in a bench process that `withProductionFlags` started. */
const MARK = "BALCAO_BENCH_PRODUCTION_V8";

/**
 * For benches that host the server in their own process (bench/ingest.ts): runs this script
 * again under production's V8 flags, passing its arguments and output through, and exits
 * with its code; returns at once in that second process. V8 flags cannot be set once the
 * process runs, and the inbound path's garbage differs enough between young-generation sizes
 * for the figures to mislead without them. `--extra-v8-flags=…` among the arguments adds to
 * them (`--trace-gc`, `--trace-gc-nvp`): a `--v8-flags=` given to `deno` reaches only the
 * first process.
 */
export async function withProductionFlags(script: string): Promise<void> {
  if (Deno.env.get(MARK) === "1" || PRODUCTION_V8_FLAGS === "") return;
  const extra = Deno.args.find((a) => a.startsWith("--extra-v8-flags="))?.slice("--extra-v8-flags=".length);
  const { code } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", `--v8-flags=${[PRODUCTION_V8_FLAGS, extra].filter(Boolean).join(",")}`, script, ...Deno.args],
    env: { ...PRODUCTION_ENV, [MARK]: "1" },
    stdin: "inherit",
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  Deno.exit(code);
}

/**
 * A collection on demand for a bench process: V8's `gc` when the process has it, or else this
 * script is run again with `--expose-gc` added to `v8Flags` (arguments and output passed
 * through) and the process exits with its code. bench/resident.ts measures with it; a load
 * generator that seeded its store in-process collects the seeding's garbage with it before
 * measuring, or its own full collections stall the calls it times (bench/inbox.ts).
 */
export async function exposedGc(script: string, v8Flags = ""): Promise<() => void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc) return gc;
  const { code } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", `--v8-flags=${[v8Flags, "--expose-gc"].filter(Boolean).join(",")}`, script, ...Deno.args],
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  Deno.exit(code);
}
