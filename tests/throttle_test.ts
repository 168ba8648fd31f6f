/**
 * Login limits over real HTTP (server/auth/login_limits.ts, issue #24): a hard limit per
 * (e-mail, address) pair, a growing delay (never a refusal) per e-mail, a far higher ceiling
 * per address, and a known device (its `jdv` cookie from an earlier login) that strangers'
 * failures neither slow down nor refuse. Addresses are set as a reverse proxy on loopback
 * would (X-Forwarded-For); the delays are shortened by config so the tests run in seconds.
 * The counts live in the store, so a restart keeps them.
 */
import assert from "node:assert/strict";
import { withServer } from "./helpers/server.ts";

/** Short delays: a 4th failure waits 100 ms, doubling to at most 800 ms. */
const FAST = { emailBaseDelayMs: 100, emailMaxDelayMs: 800 };

/** A login attempt from `address` (optionally with the device cookie `jdv`). */
async function attempt(url: string, email: string, password: string, address: string, device?: string) {
  const headers: Record<string, string> = { "content-type": "application/json", "x-forwarded-for": address };
  if (device) headers.cookie = device;
  const started = performance.now();
  const response = await fetch(`${url}/auth/login`, { method: "POST", headers, body: JSON.stringify({ email, password }) });
  const body = await response.json();
  const jdv = response.headers.getSetCookie().find((c) => c.startsWith("jdv="))?.split(";")[0];
  return {
    status: response.status,
    body,
    retryAfter: response.headers.get("retry-after"),
    ms: performance.now() - started,
    device: jdv,
  };
}

Deno.test("login: 10 failures of one (e-mail, address) pair refuse that pair only (429 with the spec's code)", async () => {
  await withServer(async (server) => {
    for (let i = 0; i < 10; i++) {
      const r = await attempt(server.url, "agent@demo.local", "wrong", "203.0.113.5");
      assert.equal(r.status, 401);
      assert.equal(r.body.error, "ERR_INVALID_CREDENTIALS");
    }
    const blocked = await attempt(server.url, "agent@demo.local", "demo1234", "203.0.113.5");
    assert.equal(blocked.status, 429);
    assert.equal(blocked.body.error, "ERR_TOO_MANY_ATTEMPTS");
    assert.equal(blocked.body.message, "Too many login attempts, try again later");
    assert.ok(Number(blocked.retryAfter) > 0 && Number(blocked.retryAfter) <= 15 * 60);
    // The same person from another place, and a colleague from the same place, get in.
    assert.equal((await attempt(server.url, "agent@demo.local", "demo1234", "203.0.113.6")).status, 200);
    assert.equal((await attempt(server.url, "admin@demo.local", "demo1234", "203.0.113.5")).status, 200);
  }, { loginLimits: FAST });
});

Deno.test("login: a refused pair stays refused after a restart on the same store (the counts live in KV)", async () => {
  const dir = await Deno.makeTempDir({ prefix: "balcao-throttle-" });
  const kvPath = `${dir}/store.kv`;
  try {
    await withServer(async (server) => {
      for (let i = 0; i < 10; i++) assert.equal((await attempt(server.url, "agent@demo.local", "wrong", "203.0.113.7")).status, 401);
      assert.equal((await attempt(server.url, "agent@demo.local", "demo1234", "203.0.113.7")).status, 429);
    }, { kvPath, loginLimits: FAST });
    await withServer(async (server) => {
      const blocked = await attempt(server.url, "agent@demo.local", "demo1234", "203.0.113.7");
      assert.equal(blocked.status, 429, "a restart hands out no fresh budget");
      assert.ok(Number(blocked.retryAfter) > 14 * 60);
      assert.equal((await attempt(server.url, "agent@demo.local", "demo1234", "203.0.113.8")).status, 200);
    }, { kvPath, loginLimits: FAST, demo: false });
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
});

Deno.test("login: failures on an e-mail from anywhere slow its logins down but never refuse them", async () => {
  await withServer(async (server) => {
    await attempt(server.url, "warm@demo.local", "wrong", "192.0.2.1"); // the first request warms the server up
    const delays: number[] = [];
    for (let i = 0; i < 10; i++) {
      const r = await attempt(server.url, "agent@demo.local", "wrong", `198.51.100.${i + 1}`);
      assert.equal(r.status, 401, `failure ${i + 1} is answered, not refused`);
      delays.push(r.ms);
    }
    // The first three are free; later ones wait, growing to the 800 ms cap.
    assert.ok(delays.slice(0, 3).every((ms) => ms < 100), `free failures took ${delays.slice(0, 3)}`);
    assert.ok(delays[3] >= 95 && delays[9] >= 780, `failures waited ${delays.map(Math.round)} ms`);
    const owner = await attempt(server.url, "agent@demo.local", "demo1234", "192.0.2.10");
    assert.equal(owner.status, 200, "the owner is slowed down, not locked out");
    assert.ok(owner.ms >= 780, `the owner's login waited ${owner.ms} ms`);
    // A success clears the e-mail's delay.
    const again = await attempt(server.url, "agent@demo.local", "demo1234", "192.0.2.10");
    assert.equal(again.status, 200);
    assert.ok(again.ms < 400, `after a success the next login took ${again.ms} ms`);
  }, { loginLimits: FAST });
});

Deno.test("login: one address may fail 100 times across e-mails before it is refused; a known device still gets in", async () => {
  await withServer(async (server) => {
    const office = "192.0.2.50";
    // The admin signed in from this office's browser before; the agent from another browser.
    const adminDevice = (await attempt(server.url, "admin@demo.local", "demo1234", office)).device;
    const agentDevice = (await attempt(server.url, "agent@demo.local", "demo1234", "192.0.2.51")).device;
    assert.ok(adminDevice && agentDevice, "a successful login sets the device cookie");
    for (let i = 0; i < 100; i++) {
      const r = await attempt(server.url, `nobody${i}@demo.local`, "wrong", office);
      assert.equal(r.status, 401, `failure ${i + 1} from one address is not refused`);
      // Well past the old 10-failure lockout, colleagues behind the same address still sign in.
      if (i === 30) assert.equal((await attempt(server.url, "supervisor@demo.local", "demo1234", office)).status, 200);
    }
    const stranger = await attempt(server.url, "supervisor@demo.local", "demo1234", office);
    assert.equal(stranger.status, 429);
    assert.equal(stranger.body.error, "ERR_TOO_MANY_ATTEMPTS");
    // The device cookie counts only for the user it was set for.
    assert.equal((await attempt(server.url, "admin@demo.local", "demo1234", office, agentDevice)).status, 429);
    assert.equal((await attempt(server.url, "admin@demo.local", "demo1234", office, adminDevice)).status, 200);
    assert.equal((await attempt(server.url, "admin@demo.local", "demo1234", "192.0.2.99")).status, 200);
  }, { loginLimits: FAST });
});

Deno.test("login: a known device is not slowed by strangers' failures on its e-mail, and a forged cookie is not one", async () => {
  await withServer(async (server) => {
    const device = (await attempt(server.url, "agent@demo.local", "demo1234", "192.0.2.20")).device!;
    for (let i = 0; i < 8; i++) {
      assert.equal((await attempt(server.url, "agent@demo.local", "wrong", `198.51.100.${i + 1}`)).status, 401);
    }
    const known = await attempt(server.url, "agent@demo.local", "demo1234", "192.0.2.20", device);
    assert.equal(known.status, 200);
    assert.ok(known.ms < 400, `the known device waited ${known.ms} ms`);
    // Strangers fail on again; a cookie with a made-up or tampered token gets the delay.
    for (let i = 0; i < 8; i++) await attempt(server.url, "agent@demo.local", "wrong", `198.51.100.${i + 1}`);
    const [head, claims] = device.slice(4).split(".");
    const forged = `jdv=${head}.${claims}.AAAA`;
    const slowed = await attempt(server.url, "agent@demo.local", "demo1234", "192.0.2.21", forged);
    assert.equal(slowed.status, 200);
    assert.ok(slowed.ms >= 780, `the forged cookie's login waited ${slowed.ms} ms`);
    // A known device's own typos do not slow the owner down elsewhere.
    const fresh = (await attempt(server.url, "agent@demo.local", "demo1234", "192.0.2.20", device)).device!;
    for (let i = 0; i < 6; i++) {
      assert.equal((await attempt(server.url, "agent@demo.local", "typo", "192.0.2.20", fresh)).status, 401);
    }
    const elsewhere = await attempt(server.url, "agent@demo.local", "demo1234", "192.0.2.30");
    assert.equal(elsewhere.status, 200);
    assert.ok(elsewhere.ms < 400, `the owner's own typos slowed another login by ${elsewhere.ms} ms`);
  }, { loginLimits: FAST });
});

Deno.test("login: the device cookie is httpOnly, scoped to /auth, and comes after the refresh cookie", async () => {
  await withServer(async (server) => {
    const response = await fetch(`${server.url}/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "agent@demo.local", password: "demo1234" }),
    });
    await response.body?.cancel();
    const cookies = response.headers.getSetCookie();
    assert.ok(cookies[0].startsWith("jrt="), "clients that keep the first cookie keep the refresh token");
    const device = cookies.find((c) => c.startsWith("jdv="));
    assert.ok(device, "the device cookie is set");
    assert.match(device, /HttpOnly/i);
    assert.match(device, /Path=\/auth/);
    assert.doesNotMatch(device, /Secure/, "plain HTTP without a trusted proxy: no Secure flag");
  });
});
