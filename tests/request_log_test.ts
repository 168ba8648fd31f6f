/**
 * Structured request logs (issue #40): every response carries the request's id (the proxy's
 * X-Request-Id when sane, else a fresh one), and the server's log lines for that request are
 * JSON objects carrying it, with the route template and, once signed in, the company.
 */
import assert from "node:assert/strict";
import { withServer } from "./helpers/server.ts";

Deno.test("a log line is one JSON object with the request id the response carries", async () => {
  const lines: string[] = [];
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const companyId = server.demo!.companyId;

    const fromProxy = await fetch(`${server.url}/tickets?status=open`, {
      headers: { authorization: `Bearer ${admin.token}`, "x-request-id": "edge-7f3a.42:1" },
    });
    assert.equal(fromProxy.status, 200);
    await fromProxy.body?.cancel();
    assert.equal(fromProxy.headers.get("x-request-id"), "edge-7f3a.42:1");

    const own = await fetch(`${server.url}/tickets/999999`, { headers: { authorization: `Bearer ${admin.token}` } });
    assert.equal(own.status, 404);
    await own.body?.cancel();
    const ownId = own.headers.get("x-request-id") ?? "";
    assert.match(ownId, /^[0-9a-f-]{36}$/);

    // A header a client could use to inject text into the log is replaced.
    const hostile = await fetch(`${server.url}/health`, { headers: { "x-request-id": 'x" ,"level":"error' } });
    await hostile.body?.cancel();
    assert.match(hostile.headers.get("x-request-id") ?? "", /^[0-9a-f-]{36}$/);

    const entries = lines.map((line) => {
      assert.ok(!line.includes("\n"), "one line each");
      return JSON.parse(line);
    });
    for (const entry of entries) {
      assert.equal(typeof entry.level, "string");
      assert.ok(!Number.isNaN(Date.parse(entry.time)), `an ISO time: ${entry.time}`);
      assert.equal(typeof entry.message, "string");
    }
    const proxied = entries.find((e) => e.requestId === "edge-7f3a.42:1");
    assert.ok(proxied, `a line with the proxy's id among ${lines.length}`);
    assert.deepEqual(
      [proxied.level, proxied.message, proxied.route, proxied.companyId, proxied.method, proxied.status],
      ["debug", "Request", "/tickets", companyId, "GET", 200],
    );
    assert.equal(typeof proxied.ms, "number");
    const missing = entries.find((e) => e.requestId === ownId);
    assert.deepEqual([missing?.route, missing?.status], ["/tickets/:id", 404]);
    assert.ok(!entries.some((e) => String(e.requestId).includes("level")), "the hostile id was never logged");
  }, { logWrite: (line) => lines.push(line), logLevel: "debug" });
});
