import assert from "node:assert/strict";
import { Hono } from "hono";
import { clientAddress } from "./client_address.ts";
import { type FailureLog, LoginThrottle } from "./throttle.ts";
import { KvThrottle } from "./throttle_kv.ts";
import { DatabaseSync } from "node:sqlite";
import { LOGIN_LIMITS, loginDelay, loginFailed, loginKeys, loginRefusal, loginSucceeded } from "./login_limits.ts";

Deno.test("LoginThrottle refuses after max failures until the window has passed", () => {
  const throttle = new LoginThrottle(3, 1000);
  for (const t of [0, 10, 20]) {
    assert.equal(throttle.retryAfter("k", t), 0);
    throttle.fail("k", t);
  }
  assert.equal(throttle.retryAfter("k", 30), 970);
  assert.equal(throttle.retryAfter("other", 30), 0);
  assert.equal(throttle.retryAfter("k", 1001), 0); // the first failure left the window
  throttle.succeed("k");
  assert.equal(throttle.retryAfter("k", 1002), 0);
});

Deno.test("LoginThrottle.retryAfter takes another limit, and count() tells the failures in the window", () => {
  const throttle = new LoginThrottle(10, 1000);
  for (const t of [0, 100, 200, 300]) throttle.fail("k", t);
  assert.equal(throttle.count("k", 350), 4);
  assert.equal(throttle.retryAfter("k", 350), 0);
  assert.equal(throttle.retryAfter("k", 350, 4), 650); // until the first of the last four leaves
  assert.equal(throttle.retryAfter("k", 350, 2), 850); // until the third leaves
  assert.equal(throttle.count("k", 1150), 2);
});

/** The login policy against one failure log: the same rules over memory and over KV. */
async function loginPolicy(throttle: FailureLog): Promise<void> {
  const keys = loginKeys("a@x.local", "10.0.0.1");
  const delays: number[] = [];
  for (let i = 0; i < 9; i++) {
    delays.push(await loginDelay(throttle, keys, false, 0));
    await loginFailed(throttle, keys, false, 0);
  }
  assert.deepEqual(delays, [0, 0, 0, 500, 1000, 2000, 4000, 8000, 8000]);
  assert.equal(await loginDelay(throttle, keys, true, 0), 0, "a known device waits for nobody");
  assert.equal(await loginRefusal(throttle, keys, false, 0), 0);
  await loginFailed(throttle, keys, false, 0);
  assert.equal(await loginRefusal(throttle, keys, false, 0), 15 * 60_000, "the 10th failure refuses the pair");
  assert.equal(await loginRefusal(throttle, keys, true, 0), 15 * 60_000, "a known device meets the pair limit too");
  // The same e-mail from elsewhere is slowed, not refused.
  const elsewhere = loginKeys("a@x.local", "10.0.0.2");
  assert.equal(await loginRefusal(throttle, elsewhere, false, 0), 0);
  assert.equal(await loginDelay(throttle, elsewhere, false, 0), 8000);
  await loginSucceeded(throttle, keys);
  assert.equal(await loginRefusal(throttle, keys, false, 0), 0);
  assert.equal(await loginDelay(throttle, elsewhere, false, 0), 0);

  // The address ceiling, and a known device's own failures count only for its pair.
  const office = (email: string) => loginKeys(email, "10.9.9.9");
  for (let i = 0; i < LOGIN_LIMITS.addressMax - 1; i++) await loginFailed(throttle, office(`u${i}@x.local`), false, 0);
  await loginFailed(throttle, office("owner@x.local"), true, 0);
  assert.equal(await loginRefusal(throttle, office("v@x.local"), false, 0), 0);
  await loginFailed(throttle, office("u-last@x.local"), false, 0);
  assert.ok(await loginRefusal(throttle, office("v@x.local"), false, 0) > 0);
  assert.equal(await loginRefusal(throttle, office("owner@x.local"), true, 0), 0);
  assert.equal(await throttle.count("email:owner@x.local", 0), 0);
  // The window passes: everything is forgiven.
  assert.equal(await loginRefusal(throttle, office("v@x.local"), false, throttle.windowMs), 0);
}

Deno.test("login limits: pair refuses, e-mail delays (doubling to a cap), address ceiling, known device exempt", async (t) => {
  await t.step("in memory (LoginThrottle)", () => loginPolicy(new LoginThrottle()));
  await t.step("in KV (KvThrottle, the app's)", async () => {
    const kv = await Deno.openKv(":memory:");
    try {
      await loginPolicy(new KvThrottle(kv));
    } finally {
      kv.close();
    }
  });
});

Deno.test("KvThrottle: two logs on one store (two processes) count together; a restart keeps the count; entries expire", async () => {
  const path = await Deno.makeTempFile({ suffix: ".kv" });
  try {
    let kv = await Deno.openKv(path);
    const [a, b] = [new KvThrottle(kv, 10, 60_000), new KvThrottle(kv, 10, 60_000)];
    // Concurrent failures on one key, half through each log: none is lost to the race.
    await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).fail("pair:x|1", 1000 + i)));
    assert.equal(await a.count("pair:x|1", 1100), 10);
    assert.equal(await b.retryAfter("pair:x|1", 1100), 60_000 - 100);
    kv.close();
    // Another process after a restart reads the same count from the store.
    kv = await Deno.openKv(path);
    const after = new KvThrottle(kv, 10, 60_000);
    assert.equal(await after.retryAfter("pair:x|1", 1100), 60_000 - 100);
    await after.succeed("pair:x|1");
    assert.equal(await after.count("pair:x|1", 1100), 0);
    // Each entry is written to expire after the window (KV removes it; no sweep).
    await after.fail("addr:9", Date.now());
    kv.close();
    const db = new DatabaseSync(path, { readOnly: true });
    const rows = db.prepare("SELECT expiration_ms FROM kv").all() as Array<{ expiration_ms: number }>;
    db.close();
    assert.equal(rows.length, 1);
    assert.ok(Math.abs(rows[0].expiration_ms - (Date.now() + 60_000)) < 5_000, `expires at ${rows[0].expiration_ms}`);
  } finally {
    await Deno.remove(path).catch(() => {});
  }
});

Deno.test("KvThrottle keeps 128 failures per key and refuses a limit it could never reach", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const log = new KvThrottle(kv, 10, 60_000);
    for (let i = 0; i < 200; i++) await log.fail("addr:1", i);
    assert.equal(await log.count("addr:1", 200), 128);
    assert.equal(await log.retryAfter("addr:1", 200, 100), 100 + 60_000 - 200, "the 100th most recent failure leaves first");
    await assert.rejects(log.retryAfter("addr:1", 200, 129), /keeps 128/);
  } finally {
    kv.close();
  }
});

Deno.test("LoginThrottle sweeps expired keys once it holds too many", () => {
  const throttle = new LoginThrottle(10, 1000, 100);
  for (let i = 0; i < 100; i++) throttle.fail(`old${i}`, 0);
  assert.equal(throttle.size, 100);
  throttle.fail("new", 5000); // key 101 triggers the sweep: every old key has expired
  assert.equal(throttle.size, 1);
});

Deno.test("clientAddress() trusts X-Forwarded-For only from loopback, and only its last entry", async () => {
  const app = new Hono();
  app.get("/", (c) => c.text(clientAddress(c)));
  const from = async (hostname: string, forwarded?: string) => {
    const headers = forwarded ? { "x-forwarded-for": forwarded } : undefined;
    const env = { remoteAddr: { transport: "tcp", hostname, port: 1234 } };
    return await (await app.request("/", { headers }, env)).text();
  };
  assert.equal(await from("203.0.113.9"), "203.0.113.9");
  assert.equal(await from("203.0.113.9", "10.9.9.9"), "203.0.113.9");
  assert.equal(await from("127.0.0.1", "6.6.6.6, 198.51.100.4"), "198.51.100.4");
  assert.equal(await from("::1", "198.51.100.5"), "198.51.100.5");
  assert.equal(await from("127.0.0.1"), "127.0.0.1");
});
