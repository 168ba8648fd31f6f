/**
 * Every company's WhatsApp connections as stored, read straight from KV rather than from their
 * collection actors, which run only in the process that holds each company (issue #35). The
 * router finds with it the company of a request that names a connection (a channel webhook by
 * connection id, the external API by connection token), and the webhooks find the connection
 * whose secret a request carries without waking another company's actors. A few seconds
 * stale at most: listed again when older than `maxAgeMs`, or at once on a miss.
 */
import type { Whatsapp } from "../../domain/whatsapp.ts";

/** The collection's KV prefix (actors/whatsapps/collection.ts: `["whatsapp", companyId, id]`). */
const PREFIX: Deno.KvKey = ["whatsapp"];

/** See the module doc. */
export class ConnectionDirectory {
  #byId = new Map<number, Whatsapp[]>();
  #byToken = new Map<string, Whatsapp>();
  #at = -Infinity;
  #listing?: Promise<void>;

  constructor(readonly kv: Deno.Kv, readonly maxAgeMs = 2000) {}

  /** The connections with id `id`, in every company (ids are per company). */
  async withId(id: number): Promise<Whatsapp[]> {
    await this.#fresh();
    if (!this.#byId.has(id)) await this.#fresh(true);
    return this.#byId.get(id) ?? [];
  }

  /** The connection whose API token is `token`, or undefined. */
  async withToken(token: string): Promise<Whatsapp | undefined> {
    if (!token) return undefined;
    await this.#fresh();
    if (!this.#byToken.has(token)) await this.#fresh(true);
    return this.#byToken.get(token);
  }

  /** Lists the connections again now (a caller whose connection was just created or changed). */
  refresh(): Promise<void> {
    return this.#fresh(true);
  }

  async #fresh(force = false): Promise<void> {
    if (!force && performance.now() - this.#at < this.maxAgeMs) return;
    this.#listing ??= this.#list().finally(() => this.#listing = undefined);
    await this.#listing;
  }

  async #list(): Promise<void> {
    const byId = new Map<number, Whatsapp[]>();
    const byToken = new Map<string, Whatsapp>();
    for await (const entry of this.kv.list<Whatsapp>({ prefix: PREFIX }, { batchSize: 1000 })) {
      const w = entry.value;
      if (typeof w?.id !== "number") continue;
      byId.set(w.id, [...byId.get(w.id) ?? [], w]);
      if (w.token) byToken.set(w.token, w);
    }
    this.#byId = byId;
    this.#byToken = byToken;
    this.#at = performance.now();
  }
}

/** One directory per store handle (a server's). */
const directories = new WeakMap<Deno.Kv, ConnectionDirectory>();

/** The connection directory of `deps`' store. */
export function connectionDirectory(deps: { kv: Deno.Kv }): ConnectionDirectory {
  let directory = directories.get(deps.kv);
  if (!directory) directories.set(deps.kv, directory = new ConnectionDirectory(deps.kv));
  return directory;
}
