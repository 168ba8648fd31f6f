/**
 * The seed's worker (bench/inbox_seed.ts `seedVolume`): builds the volume's entries and posts
 * them, encoded, to the thread that bulk-loads them (bench/lib/kv_bulk_load.ts).
 */
import { type SeedBases, type SeedPlan, type Staff, volumeEntries } from "../inbox_seed.ts";
import { postRows, type WorkerScope } from "./kv_bulk_load.ts";

const scope = self as unknown as WorkerScope;
const started = (event: MessageEvent<{ plan: SeedPlan; staff: Staff; bases: SeedBases }>) => {
  const { plan, staff, bases } = event.data;
  const volume = volumeEntries(plan, staff, bases);
  postRows(scope, volume.entries, () => ({ seeded: volume.seeded, samples: volume.samples }));
};
scope.addEventListener("message", (event) => {
  if (event.data !== "credit") started(event);
});
