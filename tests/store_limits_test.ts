/**
 * KV's size-limit refusals answer 413 in the catalogue's shape, not 500 (issue #24): the safety
 * net of server/http/store_limits.ts behind the input schemas' max lengths, proven with the
 * real errors a real (in-memory) KV throws, through the app's own error handler.
 */
import assert from "node:assert/strict";
import { Hono } from "hono";
import { AppError } from "../domain/errors.ts";
import { errorResponse } from "../server/http/errors.ts";
import { storeLimitError } from "../server/http/store_limits.ts";

/** The error `write` throws on a fresh in-memory KV. */
async function kvError(write: (kv: Deno.Kv) => Promise<unknown>): Promise<Error> {
  const kv = await Deno.openKv(":memory:");
  try {
    await write(kv);
  } catch (error) {
    return error as Error;
  } finally {
    kv.close();
  }
  throw new Error("KV took the write");
}

const OVER_LIMITS: Record<string, (kv: Deno.Kv) => Promise<unknown>> = {
  "value over 64 KiB": (kv) => kv.set(["v"], "x".repeat(70_000)),
  "key over 2 KiB": (kv) => kv.set(["k", "k".repeat(3000)], 1),
  "atomic over 800 KiB": (kv) => {
    const op = kv.atomic();
    for (let i = 0; i < 20; i++) op.set(["t", i], "x".repeat(60_000));
    return op.commit();
  },
  "atomic over 1000 mutations": (kv) => {
    const op = kv.atomic();
    for (let i = 0; i < 1200; i++) op.set(["m", i], i);
    return op.commit();
  },
};

Deno.test("storeLimitError knows each of KV's size-limit errors, and nothing else", async (t) => {
  for (const [label, write] of Object.entries(OVER_LIMITS)) {
    await t.step(label, async () => {
      const raw = await kvError(write);
      const mapped = storeLimitError(raw);
      assert.ok(mapped instanceof AppError, `${label}: ${raw.message}`);
      assert.equal(mapped.status, 413);
      assert.equal(mapped.code, "ERR_VALIDATION");
      // Wrapped once (an actor unit settling with a cause) is still known.
      assert.equal(storeLimitError(new Error("unit failed", { cause: raw }))?.status, 413);
    });
  }
  assert.equal(storeLimitError(new TypeError("Cannot read properties of null")), undefined);
  assert.equal(storeLimitError(new AppError("ERR_VALIDATION", { status: 400 })), undefined);
  assert.equal(storeLimitError("Value too large"), undefined);
});

Deno.test("the app's error handler answers a write over KV's limits with 413 in the catalogue's shape", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const app = new Hono();
    app.onError(errorResponse);
    app.post("/write", async (c) => {
      await kv.set(["field"], await c.req.text());
      return c.json({ ok: true });
    });
    app.post("/bug", () => {
      throw new TypeError("something else broke");
    });
    const big = await app.request("/write", { method: "POST", body: "y".repeat(100_000) });
    assert.equal(big.status, 413);
    const body = await big.json();
    assert.equal(body.error, "ERR_VALIDATION");
    assert.match(body.message, /too large to store/);
    assert.equal((await kv.get(["field"])).value, null, "nothing written");
    assert.equal((await app.request("/write", { method: "POST", body: "small" })).status, 200);
    // Any other unexpected error is still the 500 that gets looked at.
    const originalError = console.error;
    console.error = () => {};
    try {
      assert.equal((await app.request("/bug", { method: "POST" })).status, 500);
    } finally {
      console.error = originalError;
    }
  } finally {
    kv.close();
  }
});
