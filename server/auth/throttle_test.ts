import assert from "node:assert/strict";
import { Hono } from "hono";
import { clientAddress } from "./client_address.ts";
import { LoginThrottle } from "./throttle.ts";

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
