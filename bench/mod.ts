/**
 * Runs every benchmark in this folder (each `bench/*.ts` except this file and `*_seed.ts`) one after another,
 * each in its own process so that one bench's KV and timers cannot disturb the next.
 * Arguments name benches to run (`deno task bench kv_commit fanout`); none runs them all.
 */
const here = new URL(".", import.meta.url);
const self = new URL(import.meta.url).pathname.split("/").pop()!;
const all = [...Deno.readDirSync(here)]
  .filter((entry) => entry.isFile && entry.name.endsWith(".ts") && entry.name !== self)
  // Helpers of a bench (inbox_seed.ts) are modules, not benches.
  .filter((entry) => !entry.name.endsWith("_test.ts") && !entry.name.endsWith("_seed.ts"))
  .map((entry) => entry.name)
  .sort();
const wanted = Deno.args.length > 0
  ? all.filter((name) => Deno.args.some((arg) => name === arg || name === `${arg}.ts`))
  : all;

let failed = 0;
for (const name of wanted) {
  console.log(`\n=== bench/${name} ===`);
  const { code } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL(name, here).pathname],
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (code !== 0) {
    failed++;
    console.log(`bench/${name} exited with code ${code}`);
  }
}
if (failed > 0) Deno.exit(1);
