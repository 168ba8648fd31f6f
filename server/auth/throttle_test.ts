import assert from "node:assert/strict";
import { Hono } from "hono";
import { clientAddress } from "./client_address.ts";
import { LoginThrottle } from "./throttle.ts";
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

Deno.test("login limits: pair refuses, e-mail delays (doubling to a cap), address ceiling, known device exempt", () => {
  const throttle = new LoginThrottle();
  const keys = loginKeys("a@x.local", "10.0.0.1");
  const delays: number[] = [];
  for (let i = 0; i < 9; i++) {
    delays.push(loginDelay(throttle, keys, false, 0));
    loginFailed(throttle, keys, false, 0);
  }
  assert.deepEqual(delays, [0, 0, 0, 500, 1000, 2000, 4000, 8000, 8000]);
  assert.equal(loginDelay(throttle, keys, true, 0), 0, "a known device waits for nobody");
  assert.equal(loginRefusal(throttle, keys, false, 0), 0);
  loginFailed(throttle, keys, false, 0);
  assert.equal(loginRefusal(throttle, keys, false, 0), 15 * 60_000, "the 10th failure refuses the pair");
  assert.equal(loginRefusal(throttle, keys, true, 0), 15 * 60_000, "a known device meets the pair limit too");
  // The same e-mail from elsewhere is slowed, not refused.
  const elsewhere = loginKeys("a@x.local", "10.0.0.2");
  assert.equal(loginRefusal(throttle, elsewhere, false, 0), 0);
  assert.equal(loginDelay(throttle, elsewhere, false, 0), 8000);
  loginSucceeded(throttle, keys);
  assert.equal(loginRefusal(throttle, keys, false, 0), 0);
  assert.equal(loginDelay(throttle, elsewhere, false, 0), 0);

  // The address ceiling, and a known device's own failures count only for its pair.
  const office = (email: string) => loginKeys(email, "10.9.9.9");
  for (let i = 0; i < LOGIN_LIMITS.addressMax - 1; i++) loginFailed(throttle, office(`u${i}@x.local`), false, 0);
  loginFailed(throttle, office("owner@x.local"), true, 0);
  assert.equal(loginRefusal(throttle, office("v@x.local"), false, 0), 0);
  loginFailed(throttle, office("u-last@x.local"), false, 0);
  assert.ok(loginRefusal(throttle, office("v@x.local"), false, 0) > 0);
  assert.equal(loginRefusal(throttle, office("owner@x.local"), true, 0), 0);
  assert.equal(throttle.count("email:owner@x.local", 0), 0);
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
