/**
 * The README's start command, as a new user runs it: the real entry point in a child process
 * with an empty store. On a developer's machine (the default loopback address) it must seed
 * the demo with its thirty days (server/seed/history), print the logins with their random
 * password and how long the start took, and show the demo agent customers waiting, with the
 * simulated phone connected. On an address others can reach (a real
 * deployment), an empty store gets no demo and no well-known owner (issue #38).
 */
import assert from "node:assert/strict";
import { Client, freePort } from "./helpers/server.ts";

/** Reads the child's stdout until `needle` appears (or the stream ends). */
async function readUntil(stream: ReadableStream<Uint8Array>, needle: string): Promise<string> {
  let text = "";
  const decoder = new TextDecoder();
  const reader = stream.getReader();
  while (!text.includes(needle)) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  reader.releaseLock();
  return text;
}

Deno.test("server/main.ts seeds the demo with its thirty days, prints the logins and their password, and shows customers waiting", async () => {
  const dir = await Deno.makeTempDir({ prefix: "balcao-start-" });
  const port = freePort();
  const spawned = performance.now();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "server/main.ts"],
    env: { PORT: String(port), BALCAO_KV: `${dir}/store.kv`, BALCAO_DATA: `${dir}/media` },
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  try {
    const printed = await readUntil(child.stdout, "/simulator");
    assert.match(printed, /running at http:\/\/localhost:\d+/);
    // The start with the demo's history, as the server counts it (from its process's start to
    // listening: modules, store, demo, history; the message search indexes in the background
    // after). Printed for the record; the bound (#37: under 5 s) is checked with room
    // for a machine that other work keeps busy.
    const history = /Demo history: (\d+) conversations over the last 30 days \(played in (\d+) ms\)/.exec(printed);
    assert.ok(history, `start output tells the demo's history:\n${printed}`);
    const started = Number(/started in (\d+) ms/.exec(printed)?.[1]);
    console.log(
      `npm start with the demo's history: listening ${started} ms after the process started ` +
        `(history ${history[2]} ms, ${history[1]} conversations; ${Math.round(performance.now() - spawned)} ms from spawn, type check included)`,
    );
    assert.ok(Number(history[1]) >= 80, `a month of conversations, got ${history[1]}`);
    assert.ok(started < 10_000, `started in ${started} ms`);
    for (const email of ["super@balcao.local", "admin@demo.local", "supervisor@demo.local", "agent@demo.local"]) {
      assert.ok(printed.includes(email), `start output names ${email}`);
    }
    // No well-known password (#38): a random one, printed with the logins.
    const password = /Demo logins \(password: (\S+)\)/.exec(printed)?.[1];
    assert.ok(password && password !== "demo1234" && password.length >= 12, printed);
    const base = `http://127.0.0.1:${port}`;
    assert.equal((await fetch(`${base}/health`).then((r) => r.text()).then(JSON.parse)).status, "ok");
    assert.equal((await new Client(base).post("/auth/login", { email: "super@balcao.local", password: "demo1234" })).status, 401);

    const agent = new Client(base);
    const login = await agent.post("/auth/login", { email: "agent@demo.local", password });
    assert.equal(login.status, 200);
    agent.token = login.body.token;

    // The three demo customers arrive through the real inbound path, beside the history's
    // waiting ones; wait for them (bounded).
    const demoCustomers = ["Beatriz Rocha", "Carlos Lima", "Mariana Souza"];
    let waiting: string[] = [];
    for (let i = 0; i < 100 && demoCustomers.some((n) => !waiting.includes(n)); i++) {
      const pending: { contact: { name: string } }[] = (await agent.get("/tickets?status=pending&showAll=false")).body.tickets ?? [];
      waiting = pending.map((t) => t.contact.name);
      if (demoCustomers.some((n) => !waiting.includes(n))) await new Promise((r) => setTimeout(r, 100));
    }
    for (const name of demoCustomers) assert.ok(waiting.includes(name), `${name} waits: ${waiting.join(", ")}`);
    // The month behind them: closed tickets in the agent's queue.
    const closed = (await agent.get("/tickets?status=closed&showAll=false")).body;
    assert.ok(closed.count > 10, `closed tickets of the month: ${closed.count}`);
    const connections = await agent.get("/whatsapp");
    assert.equal(connections.body[0].status, "CONNECTED");
  } finally {
    child.kill("SIGTERM");
    await child.status;
    await child.stdout.cancel().catch(() => {});
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
});

Deno.test("server/main.ts on an address others can reach: an empty store gets no demo, no owner with a known password, and says how to create one", async () => {
  const dir = await Deno.makeTempDir({ prefix: "balcao-start-" });
  const port = freePort();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "server/main.ts"],
    // As an operator deploys it without reading about BALCAO_DEMO: reachable from the network.
    env: { PORT: String(port), BALCAO_HOST: "0.0.0.0", BALCAO_KV: `${dir}/store.kv`, BALCAO_DATA: `${dir}/media` },
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  try {
    const printed = await readUntil(child.stdout, "No platform owner yet");
    assert.match(printed, /running at http:\/\/localhost:\d+ \(listening on 0\.0\.0\.0\)/);
    assert.match(printed, /set BALCAO_OWNER_EMAIL and BALCAO_OWNER_PASSWORD/);
    assert.doesNotMatch(printed, /Demo logins/);
    const base = `http://127.0.0.1:${port}`;
    const anon = new Client(base);
    for (const email of ["super@balcao.local", "admin@demo.local"]) {
      const r = await anon.post("/auth/login", { email, password: "demo1234" });
      assert.equal(r.status, 401, `${email}: ${JSON.stringify(r.body)}`);
    }
  } finally {
    child.kill("SIGTERM");
    await child.status;
    await child.stdout.cancel().catch(() => {});
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
});
