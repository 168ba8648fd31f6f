/**
 * Deno KV's key encoding (denokv `proto/codec.rs`, itself FoundationDB's tuple layer): the
 * bytes the SQLite store keeps in its `kv.k` and `queue.keys_if_undelivered` columns. The
 * backup reads those rows directly (snapshot.ts), so it needs the key back as parts to hand
 * to `kv.set` on restore. `encodeKey` exists so tests can prove the round trip.
 *
 *   0x01 bytes, 0x02 string (UTF-8): escaped 0x00 → 0x00 0xff, ended by 0x00
 *   0x0b–0x1d bigint: 0x14 is zero, 0x14±n is n big-endian bytes (negatives ones'-complemented),
 *                     0x0b/0x1d a length byte first for more than 8 bytes
 *   0x21 number: f64 big-endian, sign bit flipped (negatives all bits flipped)
 *   0x26 false, 0x27 true
 */

const BYTES = 0x01;
const STRING = 0x02;
const NEG_INT_START = 0x0b;
const INT_ZERO = 0x14;
const POS_INT_END = 0x1d;
const DOUBLE = 0x21;
const FALSE = 0x26;
const TRUE = 0x27;
const ESCAPE = 0xff;
const MAX_SHORT_INT = 8;

const utf8 = new TextEncoder();
const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/** Decodes an encoded KV key; throws on bytes that are not one (a corrupted backup). */
export function decodeKey(bytes: Uint8Array): Deno.KvKey {
  const parts: Deno.KvKeyPart[] = [];
  let i = 0;
  while (i < bytes.length) {
    const tag = bytes[i++];
    if (tag === STRING || tag === BYTES) {
      const [end, raw] = readEscaped(bytes, i);
      i = end;
      parts.push(tag === STRING ? strictUtf8.decode(raw) : raw);
    } else if (tag >= NEG_INT_START && tag <= POS_INT_END) {
      let n: number;
      if (tag === NEG_INT_START) n = need(bytes, i++, 1)[0] ^ 0xff;
      else if (tag === POS_INT_END) n = need(bytes, i++, 1)[0];
      else n = Math.abs(tag - INT_ZERO);
      const negative = tag < INT_ZERO;
      const raw = need(bytes, i, n);
      i += n;
      let value = 0n;
      for (const b of raw) value = (value << 8n) | BigInt(negative ? b ^ 0xff : b);
      parts.push(negative ? -value : value);
    } else if (tag === DOUBLE) {
      const raw = need(bytes, i, 8).slice();
      i += 8;
      if (raw[0] & 0x80) raw[0] ^= 0x80;
      else for (let j = 0; j < 8; j++) raw[j] ^= 0xff;
      parts.push(new DataView(raw.buffer).getFloat64(0));
    } else if (tag === FALSE || tag === TRUE) {
      parts.push(tag === TRUE);
    } else {
      throw new Error(`Not a KV key: tag 0x${tag.toString(16)} at byte ${i - 1}`);
    }
  }
  return parts;
}

/** Encodes a key the way Deno KV does (the inverse of `decodeKey`). */
export function encodeKey(key: Deno.KvKey): Uint8Array {
  const out = new Uint8Array(keyBound(key));
  return out.subarray(0, writeKey(key, out, new DataView(out.buffer), 0));
}

/** The most bytes `key` can encode to: what `writeKey` needs free. */
export function keyBound(key: Deno.KvKey): number {
  let bound = 0;
  for (const part of key) {
    // A UTF-16 unit is at most 3 UTF-8 bytes, each doubled by an escape at worst.
    if (typeof part === "string") bound += 2 + 6 * part.length;
    else if (part instanceof Uint8Array) bound += 2 + 2 * part.length;
    else if (typeof part === "bigint") bound += 2 + 255;
    else bound += 9;
  }
  return bound;
}

/**
 * Writes `key`'s encoding into `out` (viewed by `view`) from `at`; answers where it ended.
 * `out` must have `keyBound(key)` bytes free. Writing in place matters to the benchmarks' bulk
 * load (bench/lib/kv_bulk_load.ts): millions of keys, where a typed array per part, or a
 * byte-at-a-time array, cost 4–14 µs a key.
 */
export function writeKey(key: Deno.KvKey, out: Uint8Array, view: DataView, at: number): number {
  const escapedRun = (tag: number, bytes: Uint8Array) => {
    out[at++] = tag;
    for (const b of bytes) {
      out[at++] = b;
      if (b === 0) out[at++] = ESCAPE;
    }
    out[at++] = 0;
  };
  /** ASCII without NUL (the usual key): its UTF-8 bytes are its char codes, never escaped. */
  const asciiRun = (text: string): boolean => {
    const start = at;
    out[at++] = STRING;
    for (let i = 0; i < text.length; i++) {
      const unit = text.charCodeAt(i);
      if (unit === 0 || unit > 0x7f) {
        at = start;
        return false;
      }
      out[at++] = unit;
    }
    out[at++] = 0;
    return true;
  };
  for (const part of key) {
    if (typeof part === "string") {
      if (!asciiRun(part)) escapedRun(STRING, utf8.encode(part));
    } else if (part instanceof Uint8Array) {
      escapedRun(BYTES, part);
    } else if (typeof part === "bigint") {
      const bytes: number[] = [];
      encodeBigInt(bytes, part);
      out.set(bytes, at);
      at += bytes.length;
    } else if (typeof part === "number") {
      out[at] = DOUBLE;
      view.setFloat64(at + 1, Number.isNaN(part) ? NaN : part);
      if (out[at + 1] & 0x80) for (let j = at + 1; j < at + 9; j++) out[j] ^= 0xff;
      else out[at + 1] ^= 0x80;
      at += 9;
    } else {
      out[at++] = part ? TRUE : FALSE;
    }
  }
  return at;
}

function encodeBigInt(out: number[], value: bigint): void {
  if (value === 0n) return void out.push(INT_ZERO);
  const negative = value < 0n;
  let magnitude = negative ? -value : value;
  const bytes: number[] = [];
  while (magnitude > 0n) {
    bytes.unshift(Number(magnitude & 0xffn));
    magnitude >>= 8n;
  }
  const n = bytes.length;
  if (n > 255) throw new Error(`Key part ${value} needs more than 255 bytes`);
  if (negative) {
    out.push(...(n <= MAX_SHORT_INT ? [INT_ZERO - n] : [NEG_INT_START, n ^ 0xff]));
    out.push(...bytes.map((b) => b ^ 0xff));
  } else {
    out.push(...(n <= MAX_SHORT_INT ? [INT_ZERO + n] : [POS_INT_END, n]));
    out.push(...bytes);
  }
}

/** Reads an escaped byte string from `start`; returns the index after its terminator. */
function readEscaped(bytes: Uint8Array, start: number): [number, Uint8Array] {
  const out: number[] = [];
  let i = start;
  while (i < bytes.length) {
    const b = bytes[i++];
    if (b !== 0) {
      out.push(b);
      continue;
    }
    if (bytes[i] !== ESCAPE) return [i, new Uint8Array(out)];
    out.push(0);
    i++;
  }
  throw new Error("Not a KV key: unterminated string or bytes part");
}

function need(bytes: Uint8Array, at: number, n: number): Uint8Array {
  if (at + n > bytes.length) throw new Error("Not a KV key: it ends inside a part");
  return bytes.subarray(at, at + n);
}
