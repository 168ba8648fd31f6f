/**
 * A growing byte buffer the seed's worker writes its rows into (bench/lib/kv_bulk_load.ts):
 * KV keys (server/backup/key_codec.ts `writeKey`, in place), and values in V8's serialization
 * format, the bytes Deno KV stores for a value.
 *
 * Why its own V8 writer: calling Deno's serializer cost ~5.6 µs a message (an op call, the
 * serializer, a new buffer per value), the largest share of the seed's 12 µs a row. The seed's
 * records are plain objects of strings, numbers, booleans, nulls and arrays, whose format is
 * small and fixed (V8's value-serializer.cc, version 15): `writeValue` writes those straight
 * into the batch and answers false for anything else, which the caller then serializes the
 * usual way. Numbers are written as V8 writes them only where it matters to the reader: a
 * small integer as int32 (V8 writes a Smi so), every other number as a double, which reads
 * back as the same number. row_buffer_test.ts reads what it writes back through V8.
 */

import { keyBound, writeKey } from "../../server/backup/key_codec.ts";

const TAG = {
  padding: 0x00,
  version: 0xff,
  null: 0x30, // '0'
  true: 0x54, // 'T'
  false: 0x46, // 'F'
  int32: 0x49, // 'I'
  double: 0x4e, // 'N'
  oneByteString: 0x22, // '"'
  twoByteString: 0x63, // 'c'
  beginObject: 0x6f, // 'o'
  endObject: 0x7b, // '{'
  beginDenseArray: 0x41, // 'A'
  endDenseArray: 0x24, // '$'
} as const;
const FORMAT_VERSION = 15;
/** V8's Smi range with pointer compression: what it writes as int32. */
const SMI_MIN = -(2 ** 30);
const SMI_MAX = 2 ** 30 - 1;
/** Array index keys are written as numbers by V8; such objects go the usual way. */
const INDEX_KEY = /^(?:0|[1-9]\d*)$/;

export class RowBuffer {
  #bytes = new Uint8Array(1 << 20);
  #view = new DataView(this.#bytes.buffer);
  #length = 0;
  #names = new Map<string, Uint8Array>();

  /** Bytes written so far. */
  get length(): number {
    return this.#length;
  }

  /** Appends `key` in Deno KV's key encoding. */
  appendKey(key: Deno.KvKey): void {
    this.#reserve(keyBound(key));
    this.#length = writeKey(key, this.#bytes, this.#view, this.#length);
  }

  /** Appends raw bytes. */
  append(bytes: Uint8Array): void {
    this.#reserve(bytes.length);
    this.#bytes.set(bytes, this.#length);
    this.#length += bytes.length;
  }

  /**
   * Appends `value` in V8's format with its header; answers false (and writes nothing) for a
   * value outside the supported shapes.
   */
  writeValue(value: unknown): boolean {
    const start = this.#length;
    this.#byte(TAG.version);
    this.#varint(FORMAT_VERSION);
    if (this.#value(value)) return true;
    this.#length = start;
    return false;
  }

  /** Takes the bytes written and starts over with a new buffer of the same capacity. */
  take(): Uint8Array {
    const taken = this.#bytes.subarray(0, this.#length);
    this.#bytes = new Uint8Array(this.#bytes.length);
    this.#view = new DataView(this.#bytes.buffer);
    this.#length = 0;
    return taken;
  }

  #value(value: unknown): boolean {
    switch (typeof value) {
      case "string":
        this.#string(value);
        return true;
      case "number":
        if (Number.isInteger(value) && value >= SMI_MIN && value <= SMI_MAX && !Object.is(value, -0)) {
          this.#byte(TAG.int32);
          this.#varint(((value << 1) ^ (value >> 31)) >>> 0);
        } else {
          this.#byte(TAG.double);
          this.#reserve(8);
          this.#view.setFloat64(this.#length, value, true);
          this.#length += 8;
        }
        return true;
      case "boolean":
        this.#byte(value ? TAG.true : TAG.false);
        return true;
      case "object":
        if (value === null) {
          this.#byte(TAG.null);
          return true;
        }
        if (Array.isArray(value)) return this.#array(value);
        if (Object.getPrototypeOf(value) !== Object.prototype) return false;
        return this.#object(value as Record<string, unknown>);
      default:
        return false;
    }
  }

  #array(items: unknown[]): boolean {
    this.#byte(TAG.beginDenseArray);
    this.#varint(items.length);
    for (let i = 0; i < items.length; i++) {
      if (!(i in items) || !this.#value(items[i])) return false;
    }
    this.#byte(TAG.endDenseArray);
    this.#varint(0);
    this.#varint(items.length);
    return true;
  }

  #object(record: Record<string, unknown>): boolean {
    this.#byte(TAG.beginObject);
    let count = 0;
    for (const key in record) {
      if (!Object.hasOwn(record, key)) continue;
      const value = record[key];
      // JSON-like records only: V8 skips nothing, but `undefined` is not worth a tag here.
      if (INDEX_KEY.test(key) || value === undefined) return false;
      this.#name(key);
      if (!this.#value(value)) return false;
      count++;
    }
    this.#byte(TAG.endObject);
    this.#varint(count);
    return true;
  }

  #string(text: string): void {
    const start = this.#length;
    this.#byte(TAG.oneByteString);
    this.#varint(text.length);
    this.#reserve(text.length);
    let at = this.#length;
    for (let i = 0; i < text.length; i++) {
      const unit = text.charCodeAt(i);
      if (unit > 0xff) {
        this.#length = start;
        return this.#twoByteString(text);
      }
      this.#bytes[at++] = unit;
    }
    this.#length = at;
  }

  #twoByteString(text: string): void {
    // V8 pads so the UTF-16 data starts at an even offset; its reader skips the padding.
    if ((this.#length + 1 + varintSize(text.length * 2)) & 1) this.#byte(TAG.padding);
    this.#byte(TAG.twoByteString);
    this.#varint(text.length * 2);
    this.#reserve(text.length * 2);
    for (let i = 0; i < text.length; i++) {
      const unit = text.charCodeAt(i);
      this.#bytes[this.#length++] = unit & 0xff;
      this.#bytes[this.#length++] = unit >> 8;
    }
  }

  /** A property name: the same few names recur in every record, so their bytes are kept. */
  #name(name: string): void {
    let bytes = this.#names.get(name);
    if (!bytes) {
      const start = this.#length;
      this.#string(name);
      bytes = this.#bytes.slice(start, this.#length);
      this.#length = start;
      this.#names.set(name, bytes);
    }
    this.append(bytes);
  }

  #byte(b: number): void {
    this.#reserve(1);
    this.#bytes[this.#length++] = b;
  }

  #varint(n: number): void {
    this.#reserve(5);
    while (n >= 0x80) {
      this.#bytes[this.#length++] = (n & 0x7f) | 0x80;
      n >>>= 7;
    }
    this.#bytes[this.#length++] = n;
  }

  #reserve(n: number): void {
    if (this.#length + n <= this.#bytes.length) return;
    const grown = new Uint8Array(Math.max(this.#bytes.length * 2, this.#length + n));
    grown.set(this.#bytes.subarray(0, this.#length));
    this.#bytes = grown;
    this.#view = new DataView(grown.buffer);
  }
}

function varintSize(n: number): number {
  let size = 1;
  while (n >= 0x80) {
    n >>>= 7;
    size++;
  }
  return size;
}
