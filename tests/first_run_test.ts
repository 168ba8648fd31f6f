/**
 * Issue #38, item 2: a fresh store never gets a platform owner with a well-known password. The
 * demo (and its logins) is seeded by default only on a developer's machine (an empty store, a
 * server on loopback, no owner configured), with a random password unless one is given; a
 * real installation's owner comes from BALCAO_OWNER_EMAIL and BALCAO_OWNER_PASSWORD, once.
 * The README's start command itself: tests/start_command_test.ts.
 */
import assert from "node:assert/strict";
import { demoWanted, loadConfig } from "../server/config.ts";
import { startTestServer, type TestServer } from "./helpers/server.ts";
import type { Config } from "../server/config.ts";

const OWNER = { email: "dona@empresa.example", password: "uma-senha-longa-1" };

/** Runs `fn` on a server over the store at `kvPath` (each call a new start of the same store). */
async function start(kvPath: string, overrides: Partial<Config>, fn: (server: TestServer) => Promise<void>) {
  const server = await startTestServer({ kvPath, ...overrides });
  try {
    await fn(server);
  } finally {
    await server.close();
  }
}

/** The status of a login. */
async function login(server: TestServer, email: string, password: string): Promise<number> {
  return (await server.client().post("/auth/login", { email, password })).status;
}

Deno.test("loadConfig(): the demo's password is random unless BALCAO_DEMO_PASSWORD sets it; the owner needs both variables and a long password", () => {
  const a = loadConfig({}).demoPassword;
  const b = loadConfig({}).demoPassword;
  assert.notEqual(a, b);
  assert.notEqual(a, "demo1234");
  assert.ok(a.length >= 12);
  assert.equal(loadConfig({ BALCAO_DEMO_PASSWORD: "escolhida" }).demoPassword, "escolhida");
  assert.equal(loadConfig({}).hostname, "127.0.0.1", "loopback unless BALCAO_HOST says otherwise");
  assert.equal(loadConfig({}).owner, undefined);
  assert.deepEqual(loadConfig({ BALCAO_OWNER_EMAIL: " Dona@Empresa.example ", BALCAO_OWNER_PASSWORD: OWNER.password }).owner, OWNER);
  assert.throws(() => loadConfig({ BALCAO_OWNER_EMAIL: OWNER.email }), /go together/);
  assert.throws(() => loadConfig({ BALCAO_OWNER_PASSWORD: OWNER.password }), /go together/);
  assert.throws(() => loadConfig({ BALCAO_OWNER_EMAIL: OWNER.email, BALCAO_OWNER_PASSWORD: "curta" }), /10 to 50/);
});

Deno.test("demoWanted(): 'auto' seeds only an empty store on loopback with no owner configured; an explicit answer wins", () => {
  const auto = { demo: "auto" as const, owner: undefined };
  assert.equal(demoWanted({ ...auto, hostname: "127.0.0.1" }, true), true);
  assert.equal(demoWanted({ ...auto, hostname: "::1" }, true), true);
  assert.equal(demoWanted({ ...auto, hostname: "127.0.0.1" }, false), false, "a store with data");
  assert.equal(demoWanted({ ...auto, hostname: "0.0.0.0" }, true), false, "reachable from the network");
  assert.equal(demoWanted({ ...auto, hostname: "10.0.0.5" }, true), false);
  assert.equal(demoWanted({ ...auto, hostname: "127.0.0.1", owner: OWNER }, true), false, "a real installation's owner is configured");
  assert.equal(demoWanted({ demo: true, hostname: "0.0.0.0", owner: undefined }, false), true);
  assert.equal(demoWanted({ demo: false, hostname: "127.0.0.1", owner: undefined }, true), false);
});

Deno.test("a fresh store on an address others reach: no demo, and the demo's owner login is refused", async () => {
  const dir = await Deno.makeTempDir({ prefix: "balcao-first-run-" });
  try {
    await start(`${dir}/store.kv`, { demo: "auto", hostname: "0.0.0.0" }, async (server) => {
      assert.equal(server.demo, undefined);
      assert.deepEqual(server.owner, { kind: "missing" });
      assert.equal(await login(server, "super@balcao.local", "demo1234"), 401);
      assert.equal(await login(server, "admin@demo.local", "demo1234"), 401);
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("BALCAO_OWNER_EMAIL and BALCAO_OWNER_PASSWORD create the platform owner once; later starts change nothing", async () => {
  const dir = await Deno.makeTempDir({ prefix: "balcao-first-run-" });
  const kvPath = `${dir}/store.kv`;
  try {
    // On loopback too: a configured owner means a real installation, so no demo.
    await start(kvPath, { demo: "auto", hostname: "127.0.0.1", owner: OWNER }, async (server) => {
      assert.equal(server.demo, undefined);
      assert.equal(server.owner.kind, "created");
      assert.equal(await login(server, "super@balcao.local", "demo1234"), 401);
      const owner = await server.login(OWNER.email, OWNER.password);
      const me = (await owner.get("/auth/me")).body;
      assert.equal(me.super, true);
      assert.equal(me.profile, "admin");
      assert.equal((await owner.get("/companies")).status, 200, "the owner manages the platform");
    });
    // The variables left set, with another password: the owner is not reset.
    await start(kvPath, { demo: "auto", hostname: "0.0.0.0", owner: { ...OWNER, password: "outra-senha-longa" } }, async (server) => {
      assert.deepEqual(server.owner, { kind: "exists" });
      assert.equal(await login(server, OWNER.email, "outra-senha-longa"), 401);
      assert.equal(await login(server, OWNER.email, OWNER.password), 200);
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("BALCAO_DEMO=1 with an owner configured: the demo is seeded as asked and the owner step leaves it alone", async () => {
  await start(":memory:", { demo: true, hostname: "0.0.0.0", owner: OWNER }, async (server) => {
    assert.ok(server.demo);
    assert.deepEqual(server.owner, { kind: "exists" });
    assert.equal(await login(server, OWNER.email, OWNER.password), 401);
    await server.login("super@balcao.local");
  });
});
