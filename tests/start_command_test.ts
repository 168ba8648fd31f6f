/**
 * The README's start command, as a new user runs it: the real entry point in a child process
 * with an empty store. It must seed the demo, print the logins, and show the demo agent
 * customers waiting, with the simulated phone connected.
 */
import assert from "node:assert/strict";
import { Client } from "./helpers/server.ts";

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

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

Deno.test("server/main.ts seeds the demo, prints the logins and shows customers waiting", async () => {
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
    const base = `http://127.0.0.1:${port}`;
    assert.equal((await fetch(`${base}/health`).then((r) => r.text()).then(JSON.parse)).status, "ok");

    const agent = new Client(base);
    const login = await agent.post("/auth/login", { email: "agent@demo.local", password: "demo1234" });
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
