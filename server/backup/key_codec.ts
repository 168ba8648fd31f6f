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
  const out: number[] = [];
  for (const part of key) {
    if (typeof part === "string" || part instanceof Uint8Array) {
      out.push(typeof part === "string" ? STRING : BYTES);
      for (const b of typeof part === "string" ? utf8.encode(part) : part) {
        out.push(b);
        if (b === 0) out.push(ESCAPE);
      }
      out.push(0);
    } else if (typeof part === "bigint") {
      encodeBigInt(out, part);
    } else if (typeof part === "number") {
      const raw = new Uint8Array(8);
      new DataView(raw.buffer).setFloat64(0, Number.isNaN(part) ? NaN : part);
      if (raw[0] & 0x80) for (let j = 0; j < 8; j++) raw[j] ^= 0xff;
      else raw[0] ^= 0x80;
      out.push(DOUBLE, ...raw);
    } else {
      out.push(part ? TRUE : FALSE);
    }
  }
  return new Uint8Array(out);
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
