/** A temporary folder for a test (e.g. a KV file), removed afterwards whatever happens. */

/** Runs `fn` with a fresh temporary folder named `prefix…`, then removes it and its contents. */
export async function withTempDir<T>(prefix: string, fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await Deno.makeTempDir({ prefix });
  try {
    return await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
