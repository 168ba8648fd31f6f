/**
 * The README's start command, as a new user runs it: the real entry point in a child process
 * with an empty store. On a developer's machine (the default loopback address) it must seed
 * the demo, print the logins with their random password, and show the demo agent customers
 * waiting, with the simulated phone connected. On an address others can reach (a real
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

Deno.test("server/main.ts seeds the demo, prints the logins and their password, and shows customers waiting", async () => {
  const dir = await Deno.makeTempDir({ prefix: "balcao-start-" });
  const port = freePort();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "server/main.ts"],
    env: { PORT: String(port), BALCAO_KV: `${dir}/store.kv`, BALCAO_DATA: `${dir}/media` },
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  try {
    const printed = await readUntil(child.stdout, "/simulator");
    assert.match(printed, /running at http:\/\/localhost:\d+/);
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

    // The three demo customers arrive through the real inbound path; wait for them (bounded).
    let pending: { contact: { name: string } }[] = [];
    for (let i = 0; i < 100 && pending.length < 3; i++) {
      pending = (await agent.get("/tickets?status=pending&showAll=false")).body.tickets ?? [];
      if (pending.length < 3) await new Promise((r) => setTimeout(r, 100));
    }
    assert.deepEqual(
      pending.map((t) => t.contact.name).sort(),
      ["Beatriz Rocha", "Carlos Lima", "Mariana Souza"],
    );
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
