import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { decodeKey, encodeKey } from "./key_codec.ts";
import { writeBackup } from "./backup.ts";
import { restoreBackup, verifyBackup } from "./restore.ts";
import { BackupError } from "./format.ts";
import { readFrames, sha256 } from "./frames.ts";
import { OPENING, sealing, TRAILER_BYTES } from "./envelope.ts";
import { createHash } from "node:crypto";
import { Packr } from "msgpackr";

const KEYS: Deno.KvKey[] = [
  ["ticket", 1, 42],
  ["s", "", "a\u0000b", "ção", "😀"],
  [new Uint8Array([0, 255, 0, 1]), new Uint8Array([])],
  [0n, 1n, -1n, 255n, 256n, -256n, 2n ** 64n - 1n, -(2n ** 70n), 2n ** 100n],
  [0, -0.5, 1e300, -1e-300, Infinity, -Infinity, Number.MAX_SAFE_INTEGER, -7],
  [true, false, "x", 3],
];

async function withDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "balcao-backup-unit-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

async function listAll(kv: Deno.Kv): Promise<Deno.KvEntry<unknown>[]> {
  return await Array.fromAsync(kv.list({ prefix: [] }));
}

Deno.test("decodeKey() reads back every key part type exactly as Deno KV stored it", async () => {
  await withDir(async (dir) => {
    const kv = await Deno.openKv(join(dir, "k.kv"));
    for (const key of KEYS) await kv.set(key, 1);
    const listed = (await listAll(kv)).map((e) => e.key);
    kv.close();
    const db = new DatabaseSync(join(dir, "k.kv"), { readOnly: true });
    const raw = (db.prepare("SELECT k FROM kv ORDER BY k").all() as Array<{ k: Uint8Array }>).map((r) => r.k);
    db.close();
    assert.equal(raw.length, KEYS.length);
    assert.deepEqual(raw.map(decodeKey), listed);
    for (let i = 0; i < raw.length; i++) assert.deepEqual(encodeKey(listed[i]), new Uint8Array(raw[i]));
  });
});

Deno.test("decodeKey() refuses bytes that are not a key", () => {
  assert.throws(() => decodeKey(new Uint8Array([0x02, 0x61])), /unterminated/);
  assert.throws(() => decodeKey(new Uint8Array([0x99])), /tag 0x99/);
  assert.throws(() => decodeKey(new Uint8Array([0x21, 1, 2])), /ends inside/);
});

/** A store with every value kind, an expiring entry, queue messages, and media (one file over a chunk). */
async function seedStore(dir: string): Promise<{ kvPath: string; dataDir: string }> {
  const kvPath = join(dir, "live.kv");
  const dataDir = join(dir, "media");
  const kv = await Deno.openKv(kvPath);
  for (const key of KEYS) {
    await kv.set(key, {
      at: new Date(1_700_000_000_000),
      map: new Map([[1, "um"]]),
      set: new Set(["a"]),
      big: 12345678901234567890n,
      bytes: new Uint8Array([1, 2, 3]),
      none: undefined,
      nested: [{ x: null }, "texto"],
    });
  }
  for (let i = 0; i < 3000; i += 500) {
    const atomic = kv.atomic();
    for (let j = i; j < i + 500; j++) atomic.set(["bulk", j], "x".repeat(600));
    await atomic.commit();
  }
  await kv.set(["counter"], new Deno.KvU64(987654321n));
  await kv.set(["raw"], new Uint8Array([9, 8, 7]));
  await kv.set(["soon"], "expires", { expireIn: 3_600_000 });
  await kv.atomic()
    .enqueue({ t: "later", n: 1 }, { delay: 3_600_000, keysIfUndelivered: [["lost", 1]], backoffSchedule: [10, 20] })
    .enqueue({ t: "now", n: 2 })
    .commit();
  kv.close();
  await Deno.mkdir(join(dataDir, "company1"), { recursive: true });
  await Deno.writeTextFile(join(dataDir, "company1", "a.txt"), "olá");
  const big = new Uint8Array(2_500_000);
  for (let i = 0; i < big.length; i++) big[i] = (i * 31) & 0xff;
  await Deno.writeFile(join(dataDir, "company1", "big.bin"), big);
  return { kvPath, dataDir };
}

Deno.test("writeBackup() and restoreBackup() round-trip every entry, expiry, queue message and media file", async () => {
  await withDir(async (dir) => {
    const { kvPath, dataDir } = await seedStore(dir);
    const out = join(dir, "b.backup");
    const written = await writeBackup({ kvPath, dataDir, out });
    assert.equal(written.entries, KEYS.length + 3003);
    assert.equal(written.queue, 2);
    assert.equal(written.files, 2);
    assert.ok(written.chunks > 4, `${written.chunks} chunks`);
    await assert.rejects(Deno.stat(`${out}.partial`));

    const target = join(dir, "restored", "store.kv");
    const targetData = join(dir, "restored", "media");
    const restored = await restoreBackup({ file: out, kvPath: target, dataDir: targetData });
    assert.equal(restored.entries, written.entries);
    assert.deepEqual(restored.keptAside, []);
    await assert.rejects(Deno.stat(`${target}.restoring`));

    const [a, b] = [await Deno.openKv(kvPath), await Deno.openKv(target)];
    try {
      const [before, after] = [await listAll(a), await listAll(b)];
      assert.equal(after.length, before.length);
      for (let i = 0; i < before.length; i++) {
        assert.deepEqual(after[i].key, before[i].key);
        assert.deepEqual(after[i].value, before[i].value);
      }
      assert.ok(after.some((e) => e.value instanceof Deno.KvU64 && e.value.value === 987654321n));
      // The queue comes back: the message due now is delivered by the restored store.
      const got = Promise.withResolvers<unknown>();
      b.listenQueue((m) => got.resolve(m));
      assert.deepEqual(await got.promise, { t: "now", n: 2 });
    } finally {
      a.close();
      b.close();
    }
    const db = new DatabaseSync(target, { readOnly: true });
    const exp = db.prepare("SELECT expiration_ms FROM kv WHERE expiration_ms > 0").all() as Array<{ expiration_ms: number }>;
    const later = db.prepare("SELECT backoff_schedule, keys_if_undelivered FROM queue").all();
    db.close();
    assert.equal(exp.length, 1, "the expiring entry keeps its expiry");
    assert.ok(Math.abs(exp[0].expiration_ms - (Date.now() + 3_600_000)) < 120_000);
    assert.equal(later.length, 1);
    assert.deepEqual(await Deno.readFile(join(targetData, "company1", "big.bin")), await Deno.readFile(join(dataDir, "company1", "big.bin")));
    assert.equal(await Deno.readTextFile(join(targetData, "company1", "a.txt")), "olá");
  });
});

Deno.test("restoreBackup() refuses a non-empty store unless forced, and keeps the old one aside", async () => {
  await withDir(async (dir) => {
    const { kvPath, dataDir } = await seedStore(dir);
    const out = join(dir, "b.backup");
    await writeBackup({ kvPath, dataDir, out });
    const target = join(dir, "t.kv");
    const kv = await Deno.openKv(target);
    await kv.set(["mine"], 1);
    kv.close();
    await assert.rejects(restoreBackup({ file: out, kvPath: target }), (e: Error) => e instanceof BackupError && /not empty/.test(e.message));
    const forced = await restoreBackup({ file: out, kvPath: target, force: true });
    assert.equal(forced.keptAside.length, 1);
    const old = await Deno.openKv(forced.keptAside[0]);
    assert.equal((await old.get(["mine"])).value, 1);
    old.close();
    const fresh = await Deno.openKv(target);
    assert.equal((await fresh.get(["mine"])).value, null);
    assert.equal((await fresh.get(["raw"])).value instanceof Uint8Array, true);
    fresh.close();
  });
});

/** The frames' bytes inside a backup file (its envelope and gzip undone). */
async function rawFrames(file: string): Promise<Uint8Array> {
  const bytes = await Deno.readFile(file);
  const gzip = bytes[0] === 0x1f ? bytes : bytes.subarray(OPENING.length, bytes.length - TRAILER_BYTES);
  return await new Response(new Blob([gzip]).stream().pipeThrough(new DecompressionStream("gzip"))).bytes();
}

/**
 * Rewrites the backup with `edit` applied to its frames' decoded payloads, as a writer would
 * (valid gzip and envelope, bad content). The `end` frame's overall SHA-256 is recomputed
 * when `rehash` (so only the checks under it are tried); `envelope: false` writes the bare
 * gzip stream of format 1.
 */
async function tamper(
  file: string,
  out: string,
  edit: (frame: Record<string, unknown>, index: number) => void,
  { rehash = false, envelope = true } = {},
): Promise<void> {
  const packr = new Packr({ useRecords: false });
  const raw = await rawFrames(file);
  const frames: Uint8Array[] = [];
  const overall = createHash("sha256");
  for (let at = 0, index = 0; at < raw.length; index++) {
    const length = new DataView(raw.buffer, raw.byteOffset + at, 4).getUint32(0);
    const frame = packr.unpack(raw.subarray(at + 4, at + 4 + length));
    edit(frame, index);
    if (frame.t === "end" && rehash) frame.sha256 = new Uint8Array(overall.digest());
    const payload = packr.pack(frame);
    const bytes = new Uint8Array(4 + payload.length);
    new DataView(bytes.buffer).setUint32(0, payload.length);
    bytes.set(payload, 4);
    if (frame.t !== "end") overall.update(bytes);
    frames.push(bytes);
    at += 4 + length;
  }
  const gz = new Blob(frames as BlobPart[]).stream().pipeThrough(new CompressionStream("gzip"));
  await Deno.writeFile(out, envelope ? gz.pipeThrough(sealing()) : gz);
}

/** A small backup (two entries, a queue message, a media file): a few hundred bytes. */
async function smallBackup(dir: string): Promise<string> {
  const kvPath = join(dir, "small.kv");
  const kv = await Deno.openKv(kvPath);
  await kv.set(["ticket", 1], { body: "olá", at: new Date(1_700_000_000_000) });
  await kv.set(["raw"], new Uint8Array([1, 2, 3]));
  await kv.atomic().enqueue({ t: "later" }, { delay: 3_600_000 }).commit();
  kv.close();
  const dataDir = join(dir, "small-media");
  await Deno.mkdir(dataDir);
  await Deno.writeTextFile(join(dataDir, "a.txt"), "um arquivo");
  const out = join(dir, "small.backup");
  await writeBackup({ kvPath, dataDir, out });
  return out;
}

Deno.test("restoreBackup() refuses a small backup with any single byte flipped, at every position", async () => {
  // Before format 2 the gzip header's MTIME/XFL/OS bytes and the padding bits of the sync
  // flush after every frame were read by no check: these positions restored as if intact.
  await withDir(async (dir) => {
    const out = await smallBackup(dir);
    const bytes = await Deno.readFile(out);
    assert.ok(bytes.length > 300 && bytes.length < 2000, `${bytes.length} bytes`);
    const bad = join(dir, "bad.backup");
    const target = join(dir, "target.kv");
    const accepted: number[] = [];
    for (let i = 0; i < bytes.length; i++) {
      const damaged = bytes.slice();
      damaged[i] ^= 0x80; // the top bit: a flush's padding bits sit at the top of its byte
      await Deno.writeFile(bad, damaged);
      const refused = await restoreBackup({ file: bad, kvPath: target }).then(() => false, (e) => {
        assert.ok(e instanceof BackupError, `byte ${i}: ${e.stack}`);
        return true;
      });
      if (!refused) {
        accepted.push(i);
        await Deno.remove(target);
      }
    }
    assert.deepEqual(accepted, [], `accepted with one flipped byte at ${accepted.length} of ${bytes.length} positions`);
    await assert.rejects(Deno.stat(target), Deno.errors.NotFound, "nothing written");
    // A byte appended, the last byte cut, the envelope removed: refused too.
    const variants: Array<[string, Uint8Array]> = [
      ["appended", new Uint8Array([...bytes, 0])],
      ["cut", bytes.slice(0, -1)],
      ["bare gzip of format 2", bytes.slice(OPENING.length, bytes.length - TRAILER_BYTES)],
    ];
    for (const [name, variant] of variants) {
      await Deno.writeFile(bad, variant);
      await assert.rejects(restoreBackup({ file: bad, kvPath: target }), BackupError, name);
    }
  });
});

Deno.test("restoreBackup() still restores a format 1 backup (a bare gzip stream) and refuses a damaged one", async () => {
  await withDir(async (dir) => {
    const out = await smallBackup(dir);
    const legacy = join(dir, "v1.backup");
    await tamper(out, legacy, (f) => {
      if (f.t === "header") f.format = 1;
    }, { rehash: true, envelope: false });
    assert.deepEqual([...(await Deno.readFile(legacy)).subarray(0, 2)], [0x1f, 0x8b]);
    const restored = await restoreBackup({ file: legacy, kvPath: join(dir, "v1.kv"), dataDir: join(dir, "v1-media") });
    assert.equal(restored.header.format, 1);
    assert.deepEqual([restored.entries, restored.queue, restored.files], [2, 1, 1]);
    const kv = await Deno.openKv(join(dir, "v1.kv"));
    assert.deepEqual((await kv.get(["ticket", 1])).value, { body: "olá", at: new Date(1_700_000_000_000) });
    kv.close();
    assert.equal(await Deno.readTextFile(join(dir, "v1-media", "a.txt")), "um arquivo");

    const damaged = join(dir, "v1-damaged.backup");
    await tamper(out, damaged, (f) => {
      if (f.t === "header") f.format = 1;
      if (f.t === "chunk" && f.n === 0) (f.body as Uint8Array)[3] ^= 1;
    }, { rehash: true, envelope: false });
    await assert.rejects(restoreBackup({ file: damaged, kvPath: join(dir, "v1-damaged.kv") }), /Chunk 0 \(kv\) does not match/);
    // A format 2 header in a bare gzip stream (its envelope lost) is refused.
    const stripped = join(dir, "v2-bare.backup");
    await tamper(out, stripped, () => {}, { envelope: false });
    await assert.rejects(restoreBackup({ file: stripped, kvPath: join(dir, "v2-bare.kv") }), /format 2 but its envelope is format 1/);
  });
});

Deno.test("restoreBackup() refuses a damaged file with a clear error and writes nothing", async () => {
  await withDir(async (dir) => {
    const { kvPath, dataDir } = await seedStore(dir);
    const out = join(dir, "b.backup");
    await writeBackup({ kvPath, dataDir, out });
    const bytes = await Deno.readFile(out);
    const cases: Array<[string, (path: string) => Promise<void>, RegExp]> = [
      ["flipped byte", (p) => {
        const bad = bytes.slice();
        bad[Math.floor(bad.length / 2)] ^= 0x40;
        return Deno.writeFile(p, bad);
      }, /cannot be read|damaged|truncated/],
      ["truncated", (p) => Deno.writeFile(p, bytes.slice(0, Math.floor(bytes.length * 0.7))), /truncated|cannot be read/],
      ["chunk body changed", (p) =>
        tamper(out, p, (f) => {
          if (f.t === "chunk" && f.n === 1) (f.body as Uint8Array)[10] ^= 1;
        }), /Chunk 1 \(kv\) does not match its SHA-256/],
      ["chunk dropped with its hash fixed", (p) =>
        tamper(out, p, (f) => {
          if (f.t === "chunk" && f.n === 2) f.n = 3;
        }), /Chunk 2 is missing/],
      ["entry rewritten and re-hashed", (p) =>
        tamper(out, p, (f) => {
          if (f.t !== "chunk" || f.n !== 0) return;
          (f.body as Uint8Array)[5] ^= 1;
          f.sha256 = sha256(f.body as Uint8Array);
        }), /overall SHA-256|does not hold|does not decode|not msgpack/],
      ["counts changed under a valid overall SHA-256", (p) =>
        tamper(out, p, (f) => {
          if (f.t === "end") (f.counts as { entries: number }).entries++;
        }, { rehash: true }), /declares \d+ entries but holds/],
      ["not a backup", (p) => Deno.writeTextFile(p, "hello"), /Not a Balcão backup/],
      ["not a backup, longer", (p) => Deno.writeTextFile(p, "hello, this is some other file\n".repeat(10)), /Not a Balcão backup/],
    ];
    for (const [name, make, expected] of cases) {
      const bad = join(dir, `${name.replaceAll(" ", "_")}.backup`);
      await make(bad);
      const target = join(dir, `${name.replaceAll(" ", "_")}.kv`);
      await assert.rejects(
        restoreBackup({ file: bad, kvPath: target, dataDir: join(dir, `${name}-media`) }),
        (e: Error) => {
          assert.ok(e instanceof BackupError, `${name}: ${e.stack}`);
          assert.match(e.message, expected, name);
          return true;
        },
      );
      await assert.rejects(Deno.stat(target), Deno.errors.NotFound, `${name}: nothing written`);
      await assert.rejects(Deno.stat(`${target}.restoring`), Deno.errors.NotFound);
    }
    // The intact file verifies, frame by frame.
    const { counts } = await verifyBackup(out);
    assert.equal(counts.files, 2);
    let frames = 0;
    for await (const _ of readFrames(out)) frames++;
    assert.ok(frames > counts.chunks);
  });
});
