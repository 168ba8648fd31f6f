/** The token-signing secret: from BALCAO_SECRET, or generated once and kept in KV. */

const KEY: Deno.KvKey = ["system", "secret"];

export async function loadSecret(kv: Deno.Kv, configured?: string): Promise<string> {
  if (configured) return configured;
  const stored = await kv.get<string>(KEY);
  if (stored.value) return stored.value;
  const fresh = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))));
  const result = await kv.atomic().check(stored).set(KEY, fresh).commit();
  if (result.ok) return fresh;
  return (await kv.get<string>(KEY)).value!;
}
