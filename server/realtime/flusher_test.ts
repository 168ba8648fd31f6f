import assert from "node:assert/strict";
import type { Connection } from "./connection.ts";
import { Flusher } from "./flusher.ts";

/** The part of a Connection the flusher uses: when it last flushed, and a flush counter. */
function fakeConn(lastFlushAt = -Infinity) {
  const conn = {
    lastFlushAt,
    flushes: 0,
    flush() {
      conn.flushes++;
      conn.lastFlushAt = performance.now();
    },
  };
  return conn;
}

const asConn = (fake: ReturnType<typeof fakeConn>) => fake as unknown as Connection;

Deno.test("Flusher flushes a socket past its window in a microtask, and one inside it when its own window ends", async () => {
  const flusher = new Flusher(() => 60);
  try {
    const quiet = fakeConn();
    const busy = fakeConn(performance.now());
    flusher.queued(asConn(quiet));
    flusher.queued(asConn(busy));
    await Promise.resolve();
    assert.equal(quiet.flushes, 1, "a socket that has not flushed lately goes at once");
    assert.equal(busy.flushes, 0, "a socket that just flushed waits for its window");
    await new Promise((r) => setTimeout(r, 120));
    assert.equal(busy.flushes, 1);
    assert.equal(quiet.flushes, 1);
  } finally {
    flusher.close();
  }
});

Deno.test("Flusher.close() cancels the flushes still waiting for their window", async () => {
  const flusher = new Flusher(() => 30);
  const waiting = fakeConn(performance.now());
  flusher.queued(asConn(waiting));
  flusher.close();
  await new Promise((r) => setTimeout(r, 60));
  assert.equal(waiting.flushes, 0);
});
