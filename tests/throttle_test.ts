import assert from "node:assert/strict";
import { withServer } from "./helpers/server.ts";

/** A login attempt as if it came from `address` through a reverse proxy on loopback. */
async function attempt(url: string, email: string, password: string, address: string) {
  const response = await fetch(`${url}/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": address },
    body: JSON.stringify({ email, password }),
  });
  const body = await response.json();
  return { status: response.status, body, retryAfter: response.headers.get("retry-after") };
}

Deno.test("POST /auth/login throttles an e-mail after 10 failures from anywhere (429)", async () => {
  await withServer(async (server) => {
    for (let i = 0; i < 10; i++) {
      const r = await attempt(server.url, "agent@demo.local", "wrong", `10.0.0.${i + 1}`);
      assert.equal(r.status, 401);
      assert.equal(r.body.error, "ERR_INVALID_CREDENTIALS");
    }
    const blocked = await attempt(server.url, "agent@demo.local", "demo1234", "10.0.1.1");
    assert.equal(blocked.status, 429);
    assert.equal(blocked.body.error, "ERR_TOO_MANY_ATTEMPTS");
    assert.ok(Number(blocked.retryAfter) > 0);
    // Another account from the same addresses is not affected.
    assert.equal((await attempt(server.url, "admin@demo.local", "demo1234", "10.0.0.1")).status, 200);
  });
});

Deno.test("POST /auth/login throttles an address after 10 failures on any e-mails (429)", async () => {
  await withServer(async (server) => {
    for (let i = 0; i < 10; i++) {
      const r = await attempt(server.url, `nobody${i}@demo.local`, "wrong", "192.0.2.7");
      assert.equal(r.status, 401);
    }
    const blocked = await attempt(server.url, "admin@demo.local", "demo1234", "192.0.2.7");
    assert.equal(blocked.status, 429);
    assert.equal(blocked.body.error, "ERR_TOO_MANY_ATTEMPTS");
    assert.equal((await attempt(server.url, "admin@demo.local", "demo1234", "192.0.2.8")).status, 200);
  });
});

Deno.test("POST /auth/login: a success clears the e-mail's failures, not the address's", async () => {
  await withServer(async (server) => {
    for (let i = 0; i < 9; i++) {
      assert.equal((await attempt(server.url, "agent@demo.local", "wrong", `10.1.0.${i + 1}`)).status, 401);
    }
    assert.equal((await attempt(server.url, "agent@demo.local", "demo1234", "10.1.1.1")).status, 200);
    for (let i = 0; i < 9; i++) {
      assert.equal((await attempt(server.url, "agent@demo.local", "wrong", `10.2.0.${i + 1}`)).status, 401);
    }
    assert.equal((await attempt(server.url, "agent@demo.local", "demo1234", "10.2.1.1")).status, 200);

    for (let i = 0; i < 9; i++) {
      assert.equal((await attempt(server.url, `x${i}@demo.local`, "wrong", "198.51.100.1")).status, 401);
    }
    assert.equal((await attempt(server.url, "admin@demo.local", "demo1234", "198.51.100.1")).status, 200);
    assert.equal((await attempt(server.url, "x9@demo.local", "wrong", "198.51.100.1")).status, 401);
    assert.equal((await attempt(server.url, "admin@demo.local", "demo1234", "198.51.100.1")).status, 429);
  });
});
