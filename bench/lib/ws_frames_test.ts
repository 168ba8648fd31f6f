import assert from "node:assert/strict";
import { concatBytes } from "./bytes.ts";
import { encodeClientFrame, type Frame, FrameReader, OPCODE } from "./ws_frames.ts";

const text = new TextEncoder();

/** An unmasked server frame of `payload`. */
function serverFrame(opcode: number, payload: Uint8Array, fin = true): Uint8Array {
  const n = payload.length;
  const head = n < 126 ? [n] : n < 65_536 ? [126, n >> 8, n & 0xff] : [127, 0, 0, 0, 0, n >>> 24, (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff];
  return new Uint8Array([(fin ? 0x80 : 0) | opcode, ...head, ...payload]);
}

const concat = (...parts: Uint8Array[]) => concatBytes(parts);

/** Frames with their payloads copied (they are views valid only until the next push). */
function copied(frames: Frame[]) {
  return frames.map((f) => ({ fin: f.fin, opcode: f.opcode, payload: new TextDecoder().decode(f.payload) }));
}

Deno.test("FrameReader.push() returns every frame of a read that holds several", () => {
  const reader = new FrameReader();
  const frames = reader.push(concat(
    serverFrame(OPCODE.text, text.encode('{"a":1}')),
    serverFrame(OPCODE.ping, new Uint8Array()),
    serverFrame(OPCODE.text, text.encode("[]")),
  ));
  assert.deepEqual(copied(frames), [
    { fin: true, opcode: OPCODE.text, payload: '{"a":1}' },
    { fin: true, opcode: OPCODE.ping, payload: "" },
    { fin: true, opcode: OPCODE.text, payload: "[]" },
  ]);
  assert.equal(reader.pending, 0);
});

Deno.test("FrameReader.push() joins a frame split across reads at every byte, head included", () => {
  const long = "x".repeat(300) + "é"; // 16-bit length
  const bytes = concat(serverFrame(OPCODE.text, text.encode("hi")), serverFrame(OPCODE.text, text.encode(long)));
  for (let cut = 0; cut <= bytes.length; cut++) {
    const reader = new FrameReader();
    const chunk = new Uint8Array(bytes.length);
    // One reused read buffer, as the client does: earlier frames must not see later bytes.
    chunk.set(bytes.subarray(0, cut));
    const first = copied(reader.push(chunk.subarray(0, cut)));
    chunk.set(bytes.subarray(cut));
    const second = copied(reader.push(chunk.subarray(0, bytes.length - cut)));
    assert.deepEqual([...first, ...second].map((f) => f.payload), ["hi", long], `cut at ${cut}`);
    assert.equal(reader.pending, 0);
  }
});

Deno.test("FrameReader.push() reads 64-bit lengths and keeps fin and opcode", () => {
  const big = new Uint8Array(70_000).fill(7);
  const reader = new FrameReader();
  const [a, b] = reader.push(concat(serverFrame(OPCODE.binary, big, false), serverFrame(OPCODE.continuation, big)));
  assert.equal(a.fin, false);
  assert.equal(a.opcode, OPCODE.binary);
  assert.equal(a.payload.length, 70_000);
  assert.equal(b.fin, true);
  assert.equal(b.opcode, OPCODE.continuation);
  assert.equal(b.payload[69_999], 7);
});

Deno.test("FrameReader.push() refuses a masked frame", () => {
  assert.throws(() => new FrameReader().push(new Uint8Array([0x81, 0x80 | 1, 1, 2, 3, 4, 5])), /masked/);
});

Deno.test("encodeClientFrame() masks the payload and a server-side unmask restores it", () => {
  for (const n of [0, 5, 125, 126, 300, 70_000]) {
    const payload = new Uint8Array(n).map((_, i) => i % 251);
    const frame = encodeClientFrame(OPCODE.text, payload);
    assert.equal(frame[0], 0x80 | OPCODE.text);
    assert.equal(frame[1] & 0x80, 0x80);
    const code = frame[1] & 0x7f;
    const head = code < 126 ? 2 : code === 126 ? 4 : 10;
    const length = code < 126 ? code : code === 126 ? (frame[2] << 8) | frame[3] : new DataView(frame.buffer, 2, 8).getUint32(4);
    assert.equal(length, n);
    const mask = frame.subarray(head, head + 4);
    const unmasked = frame.subarray(head + 4).map((byte, i) => byte ^ mask[i & 3]);
    assert.deepEqual(unmasked, payload);
  }
});
