/**
 * Readiness beside liveness (issue #40): during a start the server already listens, /health
 * answers 200 and /ready 503 (every other request 503 ERR_STARTING with Retry-After) until the
 * read models are warm and the sessions resumed; then /ready answers 200 and the API works.
 * The start is held with a store slow to list the tickets, as a large store is.
 */
import assert from "node:assert/strict";
import { eventually } from "./helpers/channels.ts";
import { Scrape } from "./helpers/prometheus.ts";
import { freePort, startTestServer } from "./helpers/server.ts";

/** A store whose ticket listings wait for `release`. */
function slowTicketStore(gate: Promise<void>) {
  const held = { count: 0 };
  const wrapKv = (kv: Deno.Kv): Deno.Kv =>
    new Proxy(kv, {
      get(target, prop) {
        const value = Reflect.get(target, prop, target);
        if (prop !== "list") return typeof value === "function" ? value.bind(target) : value;
        return (selector: { prefix?: Deno.KvKey; start?: Deno.KvKey }, options?: Deno.KvListOptions) => {
          const first = (selector.prefix ?? selector.start)?.[0];
          if (first !== "ticket") return target.list(selector as Deno.KvListSelector, options);
          held.count++;
          return (async function* () {
            await gate;
            yield* target.list(selector as Deno.KvListSelector, options);
          })();
        };
      },
    });
  return { wrapKv, held };
}

const probe = async (url: string, path: string, init?: RequestInit) => {
  const response = await fetch(url + path, init);
  return { status: response.status, headers: response.headers, body: await response.json().catch(() => null) };
};

Deno.test("GET /ready answers 503 while the server warms up and 200 once it serves, /health 200 throughout", async () => {
  const port = freePort();
  const url = `http://127.0.0.1:${port}`;
  const gate = Promise.withResolvers<void>();
  const store = slowTicketStore(gate.promise);
  const starting = startTestServer({ port, wrapKv: store.wrapKv, metricsToken: "t" });
  try {
    await eventually(() => fetch(`${url}/health`).then((r) => r.body?.cancel().then(() => r.status === 200 || undefined), () => undefined), 20_000, "the listener");
    await eventually(() => store.held.count > 0 || undefined, 10_000, "the ticket desks' load");

    assert.deepEqual((await probe(url, "/health")).body, { status: "ok" });
    const ready = await probe(url, "/ready");
    assert.equal(ready.status, 503);
    assert.equal(ready.body.status, "warming");
    const api = await probe(url, "/auth/login", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    assert.equal(api.status, 503);
    assert.equal(api.body.error, "ERR_STARTING");
    assert.equal(api.headers.get("retry-after"), "2");
    const page = await probe(url, "/tickets", { headers: { accept: "text/html" } });
    assert.equal(page.status, 503);
    const metrics = await fetch(`${url}/metrics`, { headers: { authorization: "Bearer t" } });
    assert.equal(metrics.status, 200);
    assert.equal(Scrape.parse(await metrics.text()).value("balcao_ready"), 0);

    gate.resolve();
    const server = await starting;
    try {
      const now = await probe(url, "/ready");
      assert.equal(now.status, 200);
      assert.deepEqual(now.body, { status: "ready" });
      assert.equal((await server.login("admin@demo.local")).token !== undefined, true);
    } finally {
      await server.close();
    }
  } catch (error) {
    gate.resolve();
    await starting.then((server) => server.close(), () => {});
    throw error;
  }
});

Deno.test("GET /ready answers 503 while the server shuts down, and so does the API", async () => {
  const server = await startTestServer();
  assert.equal((await probe(server.url, "/ready")).status, 200);
  server.deps.readiness.enter("stopping");
  const stopping = await probe(server.url, "/ready");
  assert.deepEqual([stopping.status, stopping.body.status], [503, "stopping"]);
  const api = await probe(server.url, "/tickets");
  assert.equal(api.status, 503);
  assert.match(api.body.message, /shutting down/);
  await server.close();
});
