/**
 * Bulk-loads a benchmark's fixture into a closed Deno KV store by writing the rows of its
 * SQLite file directly (issue #23 §3: the ten-times seed in ≤ 3 minutes).
 *
 * Why not `kv.atomic()`: every entry through KV's API costs its key and value encoding on this
 * thread plus one SQLite insert on KV's thread, behind a 1000-mutation cap per commit; the
 * seeder reached ~23k entries/s and a raw write of empty values ~72k/s, so 12.6M entries
 * (10M messages) could not go below ~175 s even with nothing else to do.
 *
 * Here the two halves run on the two cores: a worker builds the entries and encodes them
 * (`postRows`, values in V8's format by bench/lib/row_buffer.ts), the loader inserts them with prepared statements of `ROWS_PER_STATEMENT` rows
 * in large transactions (`loadFromWorker`; node:sqlite's call per row alone cost 7 µs a row),
 * at most `CREDITS` batches behind so memory stays flat.
 *
 * The rows are what denokv's SQLite backend keeps (the schema server/backup/snapshot.ts reads):
 * `kv.k` the key in KV's tuple encoding (server/backup/key_codec.ts), `kv.v` the V8
 * serialization (`v_encoding` 1: the serializer Deno KV itself calls, see `storageBytes`), and
 * one fresh version for the whole load, as if it were one commit. The loader refuses a file
 * without that schema, and `verifyLoaded` reads entries back through `Deno.openKv`, so a change
 * of the format fails the seed instead of seeding something the server misreads.
 *
 * The store must be closed while it loads (no server, no open `Deno.Kv` on the file).
 */
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { serialize } from "node:v8";
import { RowBuffer } from "./row_buffer.ts";

/** Rows per SQLite transaction: the page cache spills to the file between them. */
const ROWS_PER_TRANSACTION = 20_000;
/** Rows per INSERT (four parameters each; SQLite allows 32,766). */
const ROWS_PER_STATEMENT = 250;
/** Rows per message from the worker. */
const ROWS_PER_BATCH = ROWS_PER_STATEMENT * 8;
/** Batches the worker may post ahead of the loader. */
const CREDITS = 16;
const V8_ENCODING = 1;

/** One batch of rows: keys and values back to back in `bytes`, their sizes in `lengths`. */
interface RowBatch {
  kind: "rows";
  bytes: Uint8Array;
  /** key 0, value 0, key 1, value 1, … */
  lengths: Uint32Array;
}

/** The worker's last message: its result, or why it failed. */
type WorkerEnd = { kind: "done"; result: unknown } | { kind: "failed"; error: string };

/** What `postRows` needs of a worker's global scope. */
export interface WorkerScope {
  postMessage(message: unknown, transfer?: Transferable[]): void;
  addEventListener(type: "message", listener: (event: MessageEvent) => void): void;
}

/** Deno's internal `core` (not typed: reached through `Deno[Deno.internal]`). */
type DenoCore = { serialize?: (value: unknown, options: { forStorage: boolean }) => Uint8Array };

/**
 * The value's bytes as Deno KV stores them. Deno KV serializes with its runtime's
 * `core.serialize(value, { forStorage: true })` (ext/kv/01_db.ts); that function is internal,
 * so when a Deno no longer exposes it node:v8's serializer (the same wire format, an older
 * header version, 3× slower here) serves instead.
 */
const storageBytes: (value: unknown) => Uint8Array = (() => {
  const internal = (Deno as unknown as Record<symbol, { core?: DenoCore } | undefined>)[
    (Deno as unknown as { internal: symbol }).internal
  ];
  const core = internal?.core;
  return core?.serialize ? (value) => core.serialize!(value, { forStorage: true }) : serialize;
})();

/**
 * Worker side: encodes `entries` and posts them to the loader in batches, waiting for a
 * credit whenever `CREDITS` batches are unconsumed; then posts `result` as the last message.
 */
export async function postRows(scope: WorkerScope, entries: Iterable<[Deno.KvKey, unknown]>, result: () => unknown): Promise<void> {
  let credits = CREDITS;
  let wake: (() => void) | null = null;
  scope.addEventListener("message", (event) => {
    if (event.data !== "credit") return;
    credits++;
    wake?.();
    wake = null;
  });
  try {
    const buffer = new RowBuffer();
    let lengths: number[] = [];
    const post = async () => {
      while (credits === 0) await new Promise<void>((resolve) => (wake = resolve));
      credits--;
      const bytes = buffer.take();
      const batch: RowBatch = { kind: "rows", bytes, lengths: Uint32Array.from(lengths) };
      scope.postMessage(batch, [bytes.buffer, batch.lengths.buffer]);
      lengths = [];
    };
    for (const [key, value] of entries) {
      const before = buffer.length;
      buffer.appendKey(key);
      const keyEnd = buffer.length;
      if (!buffer.writeValue(value)) buffer.append(storageBytes(value));
      lengths.push(keyEnd - before, buffer.length - keyEnd);
      if (lengths.length === 2 * ROWS_PER_BATCH) await post();
    }
    if (lengths.length) await post();
    scope.postMessage({ kind: "done", result: result() } satisfies WorkerEnd);
  } catch (error) {
    scope.postMessage({ kind: "failed", error: error instanceof Error ? error.stack ?? error.message : String(error) } satisfies WorkerEnd);
  }
}

/**
 * Loader side: inserts every batch `worker` posts (see `postRows`) into the KV store at
 * `path`, in one version; answers the worker's result and how many rows were written.
 */
export function loadFromWorker<T>(path: string, worker: Worker): Promise<{ result: T; rows: number }> {
  const db = new DatabaseSync(path);
  const tables = new Set(
    (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>).map((r) => r.name),
  );
  for (const needed of ["kv", "data_version"]) {
    if (!tables.has(needed)) {
      db.close();
      return Promise.reject(new Error(`${path} is not a Deno KV store opened once (no table ${needed})`));
    }
  }
  // A fixture is rebuilt from scratch when a load fails or is cut (its callers then remove
  // the store), so neither a journal nor an fsync per commit buys anything; KV's WAL mode
  // comes back once the load is done.
  db.exec("PRAGMA synchronous = OFF");
  db.exec("PRAGMA journal_mode = OFF");
  const current = db.prepare("SELECT version FROM data_version WHERE k = 0").get() as { version: number } | undefined;
  const version = (current?.version ?? 0) + 1;
  const insertOf = (rows: number) =>
    db.prepare(
      "INSERT OR REPLACE INTO kv (k, v, v_encoding, version, seq, expiration_ms) VALUES " +
        Array(rows).fill(`(?, ?, ${V8_ENCODING}, ${version}, 0, -1)`).join(", "),
    );
  const insertFull = insertOf(ROWS_PER_STATEMENT);
  let rows = 0;
  let sinceCommit = 0;
  db.exec("BEGIN");

  const insert = ({ bytes, lengths }: RowBatch) => {
    const params: Uint8Array[] = [];
    let at = 0;
    for (const length of lengths) {
      params.push(bytes.subarray(at, at + length));
      at += length;
    }
    for (let i = 0; i < params.length; i += 2 * ROWS_PER_STATEMENT) {
      const chunk = params.slice(i, i + 2 * ROWS_PER_STATEMENT);
      (chunk.length === 2 * ROWS_PER_STATEMENT ? insertFull : insertOf(chunk.length / 2)).run(...chunk);
    }
    rows += lengths.length / 2;
    sinceCommit += lengths.length / 2;
    if (sinceCommit >= ROWS_PER_TRANSACTION) {
      db.exec("COMMIT");
      db.exec("BEGIN");
      sinceCommit = 0;
    }
  };

  return new Promise((resolve, reject) => {
    const finish = (error: Error | null, result?: T) => {
      worker.terminate();
      try {
        if (!error) {
          db.prepare("INSERT OR REPLACE INTO data_version (k, version) VALUES (0, ?)").run(version);
          db.exec("COMMIT");
          db.exec("PRAGMA journal_mode = WAL");
        }
      } finally {
        db.close();
      }
      if (error) reject(error);
      else resolve({ result: result as T, rows });
    };
    worker.onerror = (event) => {
      event.preventDefault();
      finish(new Error(`The seed worker failed: ${event.message}`));
    };
    worker.onmessage = (event: MessageEvent<RowBatch | WorkerEnd>) => {
      const message = event.data;
      try {
        if (message.kind === "rows") {
          insert(message);
          worker.postMessage("credit");
        } else if (message.kind === "done") finish(null, message.result as T);
        else finish(new Error(`The seed worker failed: ${message.error}`));
      } catch (error) {
        finish(error instanceof Error ? error : new Error(String(error)));
      }
    };
  });
}

/** Reads `samples` back through Deno KV and fails unless each holds exactly its value. */
export async function verifyLoaded(path: string, samples: Array<[Deno.KvKey, unknown]>): Promise<void> {
  const kv = await Deno.openKv(path);
  try {
    for (const [key, value] of samples) {
      const entry = await kv.get(key);
      assert.deepEqual(entry.value, value, `bulk-loaded ${JSON.stringify(key)} reads back through Deno KV unchanged`);
    }
  } finally {
    kv.close();
  }
}
