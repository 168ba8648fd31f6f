/**
 * `deno task test` (and so `npm test`): type-checks the project and runs every test, in as
 * little wall time as a 2-core machine allows. The suite is bound by CPU there (the browser
 * tests' Chromium above all), so this keeps both cores busy from start to end:
 *
 * - The islands are built once, first (server/islands/build.ts saves them to static/build,
 *   which every test server then loads), instead of once by every test process that serves a
 *   page: esbuild took about 3 s of both cores each time, in some 70 files.
 * - `deno check .` runs beside the tests rather than before them: it keeps one core busy for
 *   about 40 s, which the tests' first files leave free while they wait on real timers. Its
 *   output is shown only when it fails, after the tests' summary, and its failure fails the task.
 * - The files that take longest, or mostly wait on timers or child processes, are started
 *   first (FIRST), paired with CPU-bound ones, so they overlap the rest rather than ending the
 *   run alone with a core idle. `deno test` takes the files in the order given and then every
 *   other test file of the project, once each.
 *
 * Arguments (`deno task test tests/foo_test.ts`) replace the whole suite with those files.
 */

/**
 * Started first, in this order: the longest file (CPU-bound) beside three that mostly wait on
 * real timers; then files that mostly wait on processes they kill and restart, each followed
 * by CPU-bound ones to run beside it. (Measured on 2 cores: two waiting files side by side
 * left a core idle for a minute.) Every other file follows in deno test's own order.
 */
const FIRST = [
  "tests/browser_accessibility_test.ts",
  "tests/ticket_timers_test.ts",
  "tests/throttle_test.ts",
  "tests/ticket_timers_restart_test.ts",
  "tests/faults_kill_test.ts",
  "tests/browser_csp_test.ts",
  "tests/sweep_hostile_test.ts",
  "tests/cluster_failover_test.ts",
  "tests/sweep_isolation_test.ts",
  "tests/browser_campaigns_test.ts",
];

const deno = Deno.execPath();
const root = new URL("../", import.meta.url).pathname;

const check = new Deno.Command(deno, { args: ["check", "."], cwd: root, stdout: "piped", stderr: "piped" }).output();

const build = await new Deno.Command(deno, { args: ["run", "-A", "server/islands/build.ts"], cwd: root, stdout: "piped", stderr: "piped" }).output();
if (!build.success) {
  // Not fatal: without a saved build every test process builds the islands in memory again.
  console.error(`The islands' build failed; each test process builds its own:\n${decoded(build)}`);
}

// A file of FIRST that was renamed or removed loses its place only: "." still finds the rest.
const files = Deno.args.length > 0 ? Deno.args : [...FIRST.filter((file) => exists(root + file)), "."];
const tests = await new Deno.Command(deno, { args: ["test", "-A", "--no-check", "--parallel", ...files], cwd: root }).spawn().status;

const checked = await check;
if (!checked.success) console.error(`\ndeno check . failed:\n${decoded(checked)}`);
Deno.exit(tests.success && checked.success ? 0 : 1);

function exists(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

function decoded(output: Deno.CommandOutput): string {
  const text = new TextDecoder();
  return text.decode(output.stdout) + text.decode(output.stderr);
}
