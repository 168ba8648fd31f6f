/**
 * Test harness: a real server on a random port with its own in-memory store and the demo
 * seeded, and a small JSON client over real HTTP. Every integration test starts its own.
 */
import { type RunningServer, startServer } from "../../server/start.ts";
import type { Config } from "../../server/config.ts";

export const DEMO_PASSWORD = "demo1234";

export interface TestServer extends RunningServer {
  /** A client acting with `token` (or none). */
  client(token?: string): Client;
  /** Logs in and returns a client carrying the access token (and the refresh cookie). */
  login(email: string, password?: string): Promise<Client>;
}

// deno-lint-ignore no-explicit-any -- tests assert on arbitrary JSON shapes
export interface ApiResult<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export class Client {
  cookie = "";
  constructor(readonly baseUrl: string, public token?: string) {}

  // deno-lint-ignore no-explicit-any -- tests assert on arbitrary JSON shapes
  async request<T = any>(method: string, path: string, body?: unknown): Promise<ApiResult<T>> {
    const headers: Record<string, string> = {};
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    if (this.cookie) headers.cookie = this.cookie;
    let payload: BodyInit | undefined;
    if (body instanceof FormData) payload = body;
    else if (body !== undefined) {
      headers["content-type"] = "application/json";
      payload = JSON.stringify(body);
    }
    const response = await fetch(this.baseUrl + path, { method, headers, body: payload });
    const setCookie = response.headers.get("set-cookie");
    if (setCookie) this.cookie = setCookie.split(";")[0];
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch { /* not JSON: keep the text */ }
    return { status: response.status, body: parsed as T, headers: response.headers };
  }

  // deno-lint-ignore no-explicit-any -- see request
  get<T = any>(path: string) {
    return this.request<T>("GET", path);
  }
  // deno-lint-ignore no-explicit-any -- see request
  post<T = any>(path: string, body?: unknown) {
    return this.request<T>("POST", path, body ?? {});
  }
  // deno-lint-ignore no-explicit-any -- see request
  put<T = any>(path: string, body?: unknown) {
    return this.request<T>("PUT", path, body ?? {});
  }
  // deno-lint-ignore no-explicit-any -- see request
  delete<T = any>(path: string, body?: unknown) {
    return this.request<T>("DELETE", path, body);
  }
}

/** Starts a server for one test; pass overrides (e.g. `{ demo: false }`). */
export async function startTestServer(overrides: Partial<Config> = {}): Promise<TestServer> {
  // The media folder is the test's own unless it brings one: removed again on close.
  const ownDataDir = overrides.dataDir ? undefined : await Deno.makeTempDir({ prefix: "balcao-media-" });
  const server = await startServer({
    port: 0,
    kvPath: ":memory:",
    demo: true,
    // The demo's logins get a random password unless one is given: tests log in with this one.
    demoPassword: DEMO_PASSWORD,
    // The demo's empty inbox: tests count tickets and messages from zero. A test of the
    // demo's thirty days (server/seed/history) passes `demoHistory: true`.
    demoHistory: false,
    passwordHash: "fast",
    secret: "test-secret",
    // Nothing leaves the machine: Baileys sessions of test servers dial a closed loopback port.
    baileysWsUrl: "ws://127.0.0.1:9/ws",
    dataDir: ownDataDir,
    ...overrides,
  });
  return {
    ...server,
    async close() {
      await server.close();
      if (ownDataDir) await Deno.remove(ownDataDir, { recursive: true }).catch(() => {});
    },
    client: (token?: string) => new Client(server.url, token),
    async login(email: string, password = DEMO_PASSWORD) {
      const client = new Client(server.url);
      const result = await client.post("/auth/login", { email, password });
      if (result.status !== 200) {
        throw new Error(`Login of ${email} failed: ${result.status} ${JSON.stringify(result.body)}`);
      }
      client.token = result.body.token;
      return client;
    },
  };
}

/** Runs `fn` with a fresh server and always closes it. */
export async function withServer(
  fn: (server: TestServer) => Promise<void>,
  overrides: Partial<Config> = {},
): Promise<void> {
  const server = await startTestServer(overrides);
  try {
    await fn(server);
  } finally {
    await server.close();
  }
}

/** A loopback port free right now (for a test that must know the port before the server resolves). */
export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}
