import assert from "node:assert/strict";
import { AccessTokenVerifier } from "./access_cache.ts";
import { signAccess } from "./tokens.ts";

Deno.test("AccessTokenVerifier accepts a valid token, refuses a forged one, and expires cached ones", async () => {
  const now = Date.now();
  const verifier = new AccessTokenVerifier("secret-a", 2);
  const token = await signAccess("secret-a", { id: 1, companyId: 2, scope: "full", tokenVersion: 0 }, 60, now);
  const claims = await verifier.verify(token, now);
  assert.equal(typeof claims === "object" && claims.id, 1);
  assert.equal(await verifier.verify(token, now + 1000), claims, "second call is served from the cache");
  assert.equal(await verifier.verify(token, now + 61_000), "expired");

  const forged = await signAccess("secret-b", { id: 1, companyId: 2, scope: "full", tokenVersion: 0 }, 60, now);
  assert.equal(await verifier.verify(forged, now), "invalid");
  assert.equal(await verifier.verify("garbage", now), "invalid");
});

Deno.test("AccessTokenVerifier stays within its bound", async () => {
  const now = Date.now();
  const verifier = new AccessTokenVerifier("s", 2);
  const tokens = await Promise.all(
    [1, 2, 3].map((id) => signAccess("s", { id, companyId: 1, scope: "full", tokenVersion: 0 }, 60, now)),
  );
  for (const t of tokens) assert.equal(typeof (await verifier.verify(t, now)), "object");
  // The oldest was dropped from the cache but still verifies by signature.
  const again = await verifier.verify(tokens[0], now);
  assert.equal(typeof again === "object" && again.id, 1);
});
