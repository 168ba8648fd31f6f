/**
 * A consistent read of a live Deno KV store, from its SQLite file.
 *
 * Why not `kv.list`: KV has no snapshot isolation across a long list (each batch of 1000 is
 * read at its own moment), so a list over a busy store can hold a ticket without the index
 * entry written in the same atomic, or a counter older than the records it counts. Pausing
 * the server's writes for the whole export would stall every conversation. Instead the
 * backup opens the store's SQLite file beside the server (KV keeps it in WAL mode) and reads
 * every table inside ONE read transaction: SQLite gives that transaction a snapshot as of its
 * first read, while the server goes on committing into the WAL. The snapshot is what the
 * store held at one commit boundary (the header records its version), queue messages (the
 * actors' armed timers) included, which `kv.list` cannot read at all. It costs nothing but
 * WAL growth while the read lasts (checkpoints cannot pass an open reader).
 *
 * Limits: it needs the store's file on this machine (not `:memory:`, not a KV Connect URL),
 * and it reads denokv's SQLite schema (tables `kv`, `queue`, `queue_running`, `data_version`;
 * Deno 2.x), which is checked before anything is read.
 */
import { DatabaseSync } from "node:sqlite";
import { BackupError, type KvRecord, type QueueRecord } from "./format.ts";
import { decodeKey } from "./key_codec.ts";

const ROWS_PER_READ = 512;

/** The store as of one commit, read in one SQLite read transaction; close it when done. */
export class StoreSnapshot {
  #db: DatabaseSync;
  #open = true;
  /** Versionstamp (20 hex digits) of the last commit inside the snapshot. */
  readonly versionstamp: string;
  /** Wall-clock time the snapshot was taken: entries that expired before it are left out. */
  readonly takenAt: number;

  private constructor(db: DatabaseSync, versionstamp: string, takenAt: number) {
    this.#db = db;
    this.versionstamp = versionstamp;
    this.takenAt = takenAt;
  }

  /** Opens `path` (a Deno KV SQLite file) and starts the read transaction. */
  static open(path: string): StoreSnapshot {
    if (path === ":memory:" || /^https?:\/\//.test(path)) {
      throw new BackupError(`Cannot back up ${path}: the backup reads the store's SQLite file (a path on this machine)`);
    }
    try {
      Deno.statSync(path);
    } catch {
      throw new BackupError(`No store at ${path} (set BALCAO_KV or --kv)`);
    }
    const db = new DatabaseSync(path, { readOnly: true });
    try {
      // A writer's checkpoint may hold the WAL index for a moment: wait rather than fail.
      db.exec("PRAGMA busy_timeout = 10000");
      checkSchema(db);
      db.exec("BEGIN");
      // The snapshot starts with this first read; every later read sees the same commit.
      const row = db.prepare("SELECT version FROM data_version WHERE k = 0").get() as { version: number } | undefined;
      const version = BigInt(row?.version ?? 0);
      return new StoreSnapshot(db, version.toString(16).padStart(16, "0") + "0000", Date.now());
    } catch (error) {
      db.close();
      throw error;
    }
  }

  /** Every live entry in key order, in batches (keyset paging inside the one transaction). */
  *entries(): Generator<KvRecord[]> {
    const page = this.#db.prepare(
      `SELECT k, v, v_encoding, version, seq, expiration_ms FROM kv
       WHERE k > ? AND (expiration_ms < 0 OR expiration_ms > ?) ORDER BY k LIMIT ${ROWS_PER_READ}`,
    );
    let after: Uint8Array = new Uint8Array(0);
    while (this.#open) {
      const rows = page.all(after, this.takenAt) as Array<{
        k: Uint8Array;
        v: Uint8Array;
        v_encoding: number;
        version: number;
        seq: number;
        expiration_ms: number;
      }>;
      if (rows.length === 0) return;
      const batch: KvRecord[] = [];
      for (const row of rows) {
        if (row.v_encoding !== 1 && row.v_encoding !== 2 && row.v_encoding !== 3) {
          throw new BackupError(`Entry ${JSON.stringify(decodeKey(row.k), keyJson)} has an unknown value encoding ${row.v_encoding}`);
        }
        decodeKey(row.k); // never write a key restore could not read back
        const vs = BigInt(row.version).toString(16).padStart(16, "0") + BigInt(row.seq).toString(16).padStart(4, "0");
        batch.push([row.k, row.v_encoding, row.v, row.expiration_ms < 0 ? null : row.expiration_ms, vs]);
      }
      yield batch;
      after = rows[rows.length - 1].k;
    }
  }

  /**
   * Every queue message: waiting ones at their due time, and those a listener holds right
   * now (`queue_running`) as due at once, since their delivery had not finished.
   */
  *queue(): Generator<QueueRecord[]> {
    const tables = [
      { sql: "SELECT ts AS due, id, data, backoff_schedule, keys_if_undelivered FROM queue", running: false },
      { sql: "SELECT deadline AS due, id, data, backoff_schedule, keys_if_undelivered FROM queue_running", running: true },
    ];
    for (const { sql, running } of tables) {
      const page = this.#db.prepare(`${sql} WHERE (due, id) > (?, ?) ORDER BY due, id LIMIT ${ROWS_PER_READ}`);
      let after: [number, string] = [-1, ""];
      while (this.#open) {
        const rows = page.all(...after) as Array<{
          due: number;
          id: string;
          data: Uint8Array;
          backoff_schedule: string;
          keys_if_undelivered: string;
        }>;
        if (rows.length === 0) break;
        yield rows.map((row): QueueRecord => [
          running ? this.takenAt : row.due,
          row.data,
          parseBackoff(row.backoff_schedule),
          parseKeys(row.keys_if_undelivered),
        ]);
        const last = rows[rows.length - 1];
        after = [last.due, last.id];
      }
    }
  }

  /** Ends the read transaction. */
  close(): void {
    if (!this.#open) return;
    this.#open = false;
    try {
      this.#db.exec("COMMIT");
    } finally {
      this.#db.close();
    }
  }
}

function checkSchema(db: DatabaseSync): void {
  const tables = new Set(
    (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>).map((r) => r.name),
  );
  for (const needed of ["kv", "queue", "queue_running", "data_version"]) {
    if (!tables.has(needed)) throw new BackupError(`Not a Deno KV store (no table ${needed}): is BALCAO_KV right?`);
  }
}

function parseBackoff(text: string): number[] {
  const parsed = JSON.parse(text || "[]");
  return Array.isArray(parsed) ? parsed.map(Number) : [];
}

/** denokv keeps `keysIfUndelivered` as JSON arrays of encoded key bytes. */
function parseKeys(text: string): Uint8Array[] {
  const parsed = JSON.parse(text || "[]");
  return Array.isArray(parsed) ? parsed.map((key: number[]) => new Uint8Array(key)) : [];
}

function keyJson(_k: string, v: unknown): unknown {
  return typeof v === "bigint" ? `${v}n` : v;
}
