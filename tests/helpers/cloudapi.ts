/**
 * Drivers of the WhatsApp Cloud API tests (HTTP and browser): a server whose Graph base URL
 * points at the fake Graph API, the Cloud API connection created through POST /whatsapp,
 * Meta-style signed webhook deliveries, and the customer's ticket.
 */
import assert from "node:assert/strict";
import { eventually } from "./channels.ts";
import { fakeGraph, sign } from "./fake_graph.ts";
import { type Client, type TestServer, withServer } from "./server.ts";

export const APP_SECRET = "app-secret-0123456789";
export const VERIFY_TOKEN = "verify-me-please";

export type Fake = ReturnType<typeof fakeGraph>;

/** Runs `fn` with a fake Graph API and a server whose Graph base URL points at it. */
export async function withGraph(fn: (server: TestServer, graph: Fake) => Promise<void>): Promise<void> {
  const graph = fakeGraph();
  try {
    await withServer((server) => fn(server, graph), { graphApiUrl: graph.baseUrl });
  } finally {
    await graph.server.shutdown();
  }
}

/** Creates the Cloud API connection of the demo company through POST /whatsapp. */
export async function createCloud(admin: Client, graph: Fake, extra: Record<string, unknown> = {}) {
  return await admin.post("/whatsapp", {
    name: "Número oficial",
    provider: "cloudapi",
    cloudPhoneNumberId: graph.phoneNumberId,
    cloudWabaId: graph.wabaId,
    cloudAccessToken: graph.state.accessToken,
    cloudAppSecret: APP_SECRET,
    cloudVerifyToken: VERIFY_TOKEN,
    ...extra,
  });
}

/** POSTs a webhook delivery as Meta does, signed with `secret` (to any process of a cluster too). */
export async function deliver(server: Pick<TestServer, "url">, whatsappId: number, payload: unknown, secret = APP_SECRET) {
  const body = JSON.stringify(payload);
  const response = await fetch(`${server.url}/webhooks/cloudapi/${whatsappId}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-hub-signature-256": await sign(secret, body) },
    body,
  });
  return { status: response.status, text: await response.text() };
}

/** The ticket of the customer `number`, once it exists. */
export function ticketOf(admin: Client, number: string) {
  return eventually(async () => {
    const list = (await admin.get("/tickets?showAll=true&limit=1000")).body.tickets as Array<{ id: number; status: string; contact?: { number: string; name: string } }>;
    return list.find((t) => t.contact?.number === number);
  }, 10_000, `ticket of ${number}`);
}

// deno-lint-ignore no-explicit-any -- message views as JSON
export type View = any;

/** The messages of a ticket. */
export async function messagesOf(admin: Client, ticketId: number): Promise<View[]> {
  return (await admin.get(`/messages/${ticketId}`)).body.messages;
}

/** Accepts the ticket as the demo admin, so replies may be sent. */
export async function accept(server: TestServer, admin: Client, ticketId: number) {
  const adminId = server.demo!.logins.find((l) => l.email === "admin@demo.local")!.id;
  const r = await admin.put(`/tickets/${ticketId}`, { status: "open", userId: adminId });
  assert.equal(r.status, 200, JSON.stringify(r.body));
}

