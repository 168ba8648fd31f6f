/**
 * Point reads of one KV handle gathered into `getMany` calls. Under load, every inbound
 * message reads its provider-id entry (the dedupe check); a lone `kv.get` costs about as much
 * KV-thread time as two keys of a `getMany`, and each waits its turn behind the commit in
 * flight anyway. So reads asked within one event-loop turn go out together, up to 10 keys
 * (KV's `getMany` limit) per call. Each read still sees committed data only, as `kv.get` does.
 */

/** `getMany` takes at most 10 keys. */
const GET_MANY = 10;

interface Waiting {
  key: Deno.KvKey;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** Batches `get`s of one KV handle; see the module doc. Held per app (messages context). */
export class BatchedReads {
  #waiting: Waiting[] = [];
  #scheduled = false;

  constructor(readonly kv: Deno.Kv) {}

  /** The committed value at `key`, or null. */
  get<T>(key: Deno.KvKey): Promise<T | null> {
    return new Promise((resolve, reject) => {
      this.#waiting.push({ key, resolve: resolve as (value: unknown) => void, reject });
      if (!this.#scheduled) {
        this.#scheduled = true;
        // A timer, not a microtask: the askers released by one commit reach their reads over
        // many microtask turns; the next turn of the event loop has them all.
        setTimeout(() => this.#flush(), 0);
      }
    });
  }

  #flush(): void {
    this.#scheduled = false;
    const all = this.#waiting;
    this.#waiting = [];
    for (let i = 0; i < all.length; i += GET_MANY) {
      const chunk = all.slice(i, i + GET_MANY);
      this.kv.getMany(chunk.map((w) => w.key)).then(
        (entries) => chunk.forEach((w, j) => w.resolve(entries[j].value)),
        (error) => chunk.forEach((w) => w.reject(error)),
      );
    }
  }
}
