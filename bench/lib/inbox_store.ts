/**
 * The inbox benchmarks' store (bench/inbox.ts, bench/resident.ts): the demo tenant, queues and
 * agents made through the product, then the volume written straight into KV
 * (bench/inbox_seed.ts). With `reuse` the store lives in that folder and is seeded only once
 * (profiling; a run that changes tickets leaves them changed, so quoted figures come from
 * fresh seeds); without it, in a new temporary folder the caller removes.
 */
import { whatsapps } from "../../actors/whatsapps/collection.ts";
import { startServer } from "../../server/start.ts";
import { type SeedPlan, type Seeded, seedStaff, seedVolume, type Staff } from "../inbox_seed.ts";

/** The seeded store and what the benchmarks need to know about it. */
export interface InboxStore {
  dir: string;
  kvPath: string;
  dataDir: string;
  seeded: Seeded;
  staff: Staff;
  /** Seconds spent seeding (0 when a reused store was already seeded). */
  seedSeconds: number;
}

/** Seeds (or finds, with `reuse`) a store holding `plan`'s volume. */
export async function inboxStore(
  plan: Omit<SeedPlan, "companyId" | "whatsappId">,
  options: { reuse?: string; password: string; secret: string },
): Promise<InboxStore> {
  const dir = options.reuse ?? await Deno.makeTempDir({ prefix: "balcao-inbox-bench-" });
  const kvPath = `${dir}/bench.kv`;
  const dataDir = `${dir}/media`;
  const savedPath = `${dir}/seeded.json`;
  const saved = options.reuse ? await Deno.readTextFile(savedPath).then(JSON.parse).catch(() => null) : null;
  if (saved) return { dir, kvPath, dataDir, seeded: saved.seeded, staff: saved.staff, seedSeconds: 0 };

  const started = performance.now();
  await Deno.mkdir(dir, { recursive: true });
  // A seed that was cut left a store without `seeded.json`, maybe half loaded: start over.
  for (const suffix of ["", "-wal", "-shm"]) await Deno.remove(kvPath + suffix).catch(() => {});
  const first = await startServer({
    kvPath, dataDir, port: 0, demo: true, demoHistory: false, demoPassword: options.password, passwordHash: "fast", secret: options.secret,
  });
  const companyId = first.demo!.companyId;
  const conns = await whatsapps.in(first.deps.system, companyId).list();
  const whatsappId = (conns.find((w) => w.isDefault) ?? conns[0])?.id;
  if (!whatsappId) throw new Error("The demo tenant has no connection");
  const staff = await seedStaff(first.deps.system, companyId, options.password);
  await first.close();
  const seeded = await seedVolume(kvPath, { ...plan, companyId, whatsappId }, staff);
  if (options.reuse) await Deno.writeTextFile(savedPath, JSON.stringify({ seeded, staff }));
  return { dir, kvPath, dataDir, seeded, staff, seedSeconds: (performance.now() - started) / 1000 };
}
