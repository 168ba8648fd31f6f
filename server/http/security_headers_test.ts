/**
 * The security headers' middleware on an answer whose headers cannot change (a
 * `Response.redirect`, a fetched answer): it answers with a copy that carries every header,
 * as tests/security_headers_test.ts checks for the app's own answers over HTTP.
 */
import assert from "node:assert/strict";
import { Hono } from "hono";
import { API_CSP, securityHeaders } from "./security_headers.ts";

Deno.test("an answer with immutable headers is copied and gets every security header", async () => {
  const app = new Hono();
  app.use(securityHeaders());
  app.get("/away", () => Response.redirect("https://example.com/elsewhere", 302));
  app.get("/json", (c) => c.json({ ok: true }));
  for (const path of ["/away", "/json"]) {
    const response = await app.request(path);
    await response.body?.cancel();
    assert.equal(response.headers.get("x-content-type-options"), "nosniff", path);
    assert.equal(response.headers.get("x-frame-options"), "DENY", path);
    assert.equal(response.headers.get("referrer-policy"), "same-origin", path);
    assert.equal(response.headers.get("content-security-policy"), API_CSP, path);
  }
  const away = await app.request("/away");
  assert.equal(away.status, 302);
  assert.equal(away.headers.get("location"), "https://example.com/elsewhere");
});
