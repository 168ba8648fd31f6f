/**
 * Reading an append-only log written through the committer's `append` (committer.ts): one KV
 * value per log per commit, `[...log, "<13-digit time>~<tag><count>"] → [id₁, value₁, id₂,
 * value₂, …]`, beside entries written one per key before (`[...log, id] → value`, which ids
 * without `~` name). Listing the log's prefix in key order gives the values in the order they
 * were written; a commit's entries keep their order inside its value.
 */

/** Whether a log key's last part names a commit's value (`~`) rather than one entry's id. */
export function isAppendedPart(part: Deno.KvKeyPart): boolean {
  return typeof part === "string" && part.includes("~");
}

/** The `[id, value]` entries of one listed log entry (`at`: the index of its last key part). */
export function* appendedEntries<V>(entry: Deno.KvEntry<unknown>, at: number): Generator<[string, V]> {
  const part = entry.key[at];
  if (!isAppendedPart(part)) {
    yield [String(part), entry.value as V];
    return;
  }
  const values = entry.value;
  if (!Array.isArray(values)) return; // not written by the committer: nothing to read
  for (let n = 0; n + 1 < values.length; n += 2) yield [String(values[n]), values[n + 1] as V];
}
