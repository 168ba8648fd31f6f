/**
 * Point reads of one KV handle gathered into `getMany` calls. Under load, every inbound
 * message reads its provider-id entry (the dedupe check); a lone `kv.get` costs about as much
 * KV-thread time as two keys of a `getMany`, and each waits its turn behind the commit in
 * flight anyway. So, as group commit does for writes: a read asked while none is out goes at
 * once (a lone reader waits for nothing), and the reads asked while a round is out go
 * together when it is back, up to 10 keys (KV's `getMany` limit) per call. Each read still
 * sees committed data only, as `kv.get` does.
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
  /** `getMany` calls of the current round still out. */
  #out = 0;

  constructor(readonly kv: Deno.Kv) {}

  /** The committed value at `key`, or null. */
  get<T>(key: Deno.KvKey): Promise<T | null> {
    return new Promise((resolve, reject) => {
      this.#waiting.push({ key, resolve: resolve as (value: unknown) => void, reject });
      if (this.#out === 0) this.#send();
    });
  }

  /** Sends every waiting read (chunks of 10 in parallel); the next round starts when all are back. */
  #send(): void {
    const all = this.#waiting;
    this.#waiting = [];
    for (let i = 0; i < all.length; i += GET_MANY) {
      const chunk = all.slice(i, i + GET_MANY);
      this.#out++;
      this.kv.getMany(chunk.map((w) => w.key)).then(
        (entries) => chunk.forEach((w, j) => w.resolve(entries[j].value)),
        (error) => chunk.forEach((w) => w.reject(error)),
      ).finally(() => {
        if (--this.#out === 0 && this.#waiting.length > 0) this.#send();
      });
    }
  }
}
