/**
 * The real entry point (`server/main.ts`) as a child process on a file store, for tests that
 * SIGKILL it and start it again on the same BALCAO_KV (restart and fault tests). An in-process
 * server cannot be killed mid-write; a child can, at any instant.
 */
import assert from "node:assert/strict";
import { Client } from "./server.ts";

/** How to start one child. */
export interface ChildServerOptions {
  /** BALCAO_KV: a file path, the same one for every restart. */
  kvPath: string;
  /** BALCAO_DATA (media files). */
  dataDir: string;
  /** PORT; 0 (the default) lets the system pick one, printed in the "running at" line. */
  port?: number;
  /** Printed text that means ready: "running at" (default), or "/simulator" once the demo's conversations are seeded. */
  readyText?: string;
  /** More environment (BALCAO_TIMER_MINUTE_MS…). */
  env?: Record<string, string>;
  /** More flags of `deno run` (`--import-map=…`), before the script. */
  denoFlags?: string[];
  /** How long the start may take, in ms. */
  timeoutMs?: number;
}

/** A running `server/main.ts` child. */
export interface ChildServer {
  readonly process: Deno.ChildProcess;
  /** Its base URL (127.0.0.1 and the port it listens on). */
  readonly url: string;
  /** Everything it printed so far (stdout, then stderr's tail). */
  output(): string;
  /** SIGKILL: no shutdown code runs; resolves once the process is gone. */
  kill(): Promise<Deno.CommandStatus>;
}

/** Keeps the last `max` characters: a long run's logs must not grow without bound. */
const tail = (text: string, max = 20_000) => text.length > max ? text.slice(-max) : text;

/** Starts `server/main.ts` and resolves once it printed `readyText`; see ChildServerOptions. */
export async function spawnServer(options: ChildServerOptions): Promise<ChildServer> {
  const readyText = options.readyText ?? "running at";
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--no-check", ...options.denoFlags ?? [], "server/main.ts"],
    env: {
      PORT: String(options.port ?? 0),
      BALCAO_KV: options.kvPath,
      BALCAO_DATA: options.dataDir,
      BALCAO_SECRET: "child-server-test-secret",
      BALCAO_PASSWORD_HASH: "fast",
      // The demo seeded on an empty store (loopback, the default host) gets this password.
      BALCAO_DEMO_PASSWORD: "demo1234",
      // The demo's empty inbox, as in-process test servers have it (tests count from zero).
      BALCAO_DEMO_HISTORY: "0",
      ...options.env,
    },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let out = "";
  let err = "";
  const { promise: ready, resolve, reject } = Promise.withResolvers<string>();
  const read = async (stream: ReadableStream<Uint8Array>, onText: (text: string) => void) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) onText(decoder.decode(chunk, { stream: true }));
  };
  // Both pipes are drained for the child's whole life, so it never blocks on a full one.
  read(child.stdout, (text) => {
    out = tail(out + text);
    const found = /running at (http:\/\/localhost:\d+)/.exec(out);
    if (found && out.includes(readyText)) resolve(found[1].replace("localhost", "127.0.0.1"));
  }).then(() => reject(new Error("server/main.ts ended before it was ready"))).catch(reject);
  read(child.stderr, (text) => err = tail(err + text)).catch(() => {});
  const output = () => `${out}\n--- stderr ---\n${err}`;
  const timeoutMs = options.timeoutMs ?? 60_000;
  const timer = setTimeout(() => reject(new Error(`No "${readyText}" within ${timeoutMs} ms`)), timeoutMs);
  try {
    const url = await ready;
    return {
      process: child,
      url,
      output,
      async kill() {
        try {
          child.kill("SIGKILL");
        } catch { /* already ended */ }
        return await child.status;
      },
    };
  } catch (error) {
    try {
      child.kill("SIGKILL");
    } catch { /* already ended */ }
    await child.status;
    throw new Error(`${error}\n${output()}`);
  } finally {
    clearTimeout(timer);
  }
}

/** Logs `email` in on `url` (demo password) and returns the client and the user's id. */
export async function loginAt(url: string, email = "admin@demo.local"): Promise<{ client: Client; userId: number }> {
  const client = new Client(url);
  const r = await client.post("/auth/login", { email, password: "demo1234" });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  client.token = r.body.token;
  return { client, userId: r.body.user.id };
}
