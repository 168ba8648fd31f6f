/**
 * Copies every key of one store into another (the demo played in memory into an empty store,
 * server/start.ts): values as they are (a counter stays a `Deno.KvU64`), written through a
 * group committer, which packs them into as few atomics as KV's limits allow. Expiry times
 * cannot be read back from a store, so a copied key does not expire (the one audit entry the
 * history writes, kept past its retention).
 */
import { GroupCommitter } from "../../../actors/_runtime/committer.ts";

/**
 * Copies all of `from` into `to`, but the keys under `skip` (a derived index the target rebuilds
 * from the records, cheaper than trusting a copy saved halfway: the message search's, which a
 * replay writes under); resolves with how many keys were copied.
 */
export async function copyStore(from: Deno.Kv, to: Deno.Kv, skip: readonly string[] = []): Promise<number> {
  const committer = new GroupCommitter(to);
  const writes: Promise<void>[] = [];
  for await (const entry of from.list({ prefix: [] }, { batchSize: 1000 })) {
    if (skip.includes(String(entry.key[0]))) continue;
    writes.push(committer.commit([{ type: "set", key: entry.key, value: entry.value }]));
  }
  await Promise.all(writes);
  return writes.length;
}
