/**
 * A local HTTP server that receives outbound webhooks for tests: it records every POST (its
 * headers and raw body) and can be shut down and started again on the same port, as a
 * receiver that goes away for a while.
 */
import { signBody } from "../../server/channels/webhook.ts";

/** One received POST. */
export interface Received {
  path: string;
  headers: Headers;
  body: string;
  // deno-lint-ignore no-explicit-any -- tests assert on arbitrary JSON shapes
  json: any;
}

/** The receiver; `url(path)` addresses it while it runs (and after it stops: refused). */
export class WebhookReceiver {
  readonly received: Received[] = [];
  port = 0;
  /** Status answered (200 by default). */
  status = 200;
  #server?: Deno.HttpServer<Deno.NetAddr>;

  /** Starts listening (on the port it had before, if any). */
  start(): this {
    this.#server = Deno.serve({ port: this.port, hostname: "127.0.0.1", onListen() {} }, async (req) => {
      const body = await req.text();
      let json: unknown = null;
      try {
        json = JSON.parse(body);
      } catch { /* kept as text */ }
      this.received.push({ path: new URL(req.url).pathname, headers: req.headers, body, json });
      return new Response("ok", { status: this.status });
    });
    this.port = this.#server.addr.port;
    return this;
  }

  /** Stops listening: calls are refused until `start` again. */
  async stop(): Promise<void> {
    await this.#server?.shutdown();
    this.#server = undefined;
  }

  url(path = "/hook"): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }
}

/** Whether `r` carries a valid subscription signature (HMAC of `timestamp.body`) for `secret`. */
export async function validSignature(r: Received, secret: string): Promise<boolean> {
  const ts = r.headers.get("X-Balcao-Timestamp");
  return ts !== null && r.headers.get("X-Balcao-Signature") === await signBody(secret, `${ts}.${r.body}`);
}
