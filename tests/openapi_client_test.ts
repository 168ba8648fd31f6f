/**
 * Proof that the OpenAPI document describes the server (issue #37): a client generated from
 * the document (openapi-typescript's types, tests/generated/api_types.ts, and openapi-fetch)
 * drives a whole flow without any other helper: log in, the connection, a customer's message
 * through the simulator, the inbox, accepting, replying and reading the thread, the external messages API with the
 * connection's token, and a webhook subscription's delivery log. `deno check` proves each
 * call's path, parameters and body are the document's; at run time every answer is checked
 * against the document's own JSON Schema of that response (through zod's fromJSONSchema).
 */
import assert from "node:assert/strict";
import { z } from "zod";
import createClient from "openapi-fetch";
import type { paths } from "./generated/api_types.ts";
import { API_TYPES_FILE, apiTypes } from "../tools/openapi_types.ts";
import { openApiDocument } from "../server/openapi/mod.ts";
import { DEMO_PASSWORD, withServer } from "./helpers/server.ts";
import { eventually } from "./helpers/channels.ts";
import { freshNumber } from "./helpers/messages.ts";
import { WebhookReceiver } from "./helpers/webhook_receiver.ts";

Deno.test("the committed client types are the current document's (deno task openapi-types)", async () => {
  assert.ok(await Deno.readTextFile(API_TYPES_FILE) === await apiTypes(), "tests/generated/api_types.ts is stale: run `deno task openapi-types`");
});

type Method = "get" | "post" | "put" | "delete";

/** The document's schema of the 2XX JSON answer of `method path`, as a validator. */
function documentedAnswer(method: Method, path: string): z.ZodType {
  const doc = openApiDocument();
  const responses = doc.paths[path]?.[method]?.responses ?? assert.fail(`${method} ${path} is not in the document`);
  const [, success] = Object.entries<{ content?: Record<string, { schema: unknown }> }>(responses)
    .find(([status]) => status.startsWith("2")) ?? assert.fail(`${method} ${path} has no 2XX answer`);
  const schema = success.content?.["application/json"]?.schema ?? assert.fail(`${method} ${path} answers no JSON`);
  // The components as the schema's own `$defs`, which is how fromJSONSchema resolves references.
  const text = JSON.stringify({ ...schema as object, $defs: doc.components.schemas }).replaceAll('"#/components/schemas/', '"#/$defs/');
  return z.fromJSONSchema(JSON.parse(text));
}

/** An openapi-fetch result's data, once its status is 2XX and its body is what the document says. */
function answer<T>(result: { data?: T; error?: unknown; response: Response }, method: Method, path: string): T {
  const { data, error, response } = result;
  assert.ok(response.ok, `${method.toUpperCase()} ${path}: ${response.status} ${JSON.stringify(error)}`);
  const check = documentedAnswer(method, path).safeParse(data);
  assert.ok(check.success, `${method.toUpperCase()} ${path} answered off the document: ${JSON.stringify(check.error?.issues)}\n${JSON.stringify(data)}`);
  return data as T;
}

const SECRET = "a-secret-for-the-typed-client-0123";

Deno.test("a client generated from the document alone logs in, accepts a ticket, replies, sends through the external API and reads a webhook's deliveries", async () => {
  const receiver = new WebhookReceiver().start();
  try {
    await withServer(async (server) => {
      const baseUrl = server.url;
      const session = answer(
        await createClient<paths>({ baseUrl }).POST("/auth/login", { body: { email: "admin@demo.local", password: DEMO_PASSWORD } }),
        "post",
        "/auth/login",
      );
      const admin = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${session.token}` } });

      const connections = answer(await admin.GET("/whatsapp"), "get", "/whatsapp");
      const connection = connections.find((c) => c.isDefault) ?? assert.fail("the demo has a default connection");
      assert.ok(connection.token.length > 0, "an admin sees the connection's token");

      const subscription = answer(
        await admin.POST("/webhooks/subscriptions", { body: { url: receiver.url(), events: ["message.created"], secret: SECRET, active: true } }),
        "post",
        "/webhooks/subscriptions",
      );
      assert.equal(subscription.url, receiver.url());
      assert.notEqual(subscription.secret, SECRET, "the secret is answered masked");

      // A customer writes to the simulated phone: a waiting ticket in the inbox.
      const number = freshNumber();
      const inbound = await admin.POST("/simulator/{id}/inbound", {
        params: { path: { id: connection.id } },
        body: { from: number, name: "Cliente Tipado", body: "Oi, preciso de ajuda" },
      });
      assert.equal(inbound.response.status, 200, JSON.stringify(inbound.error));
      const waiting = await eventually(async () => {
        const page = answer(await admin.GET("/tickets", { params: { query: { status: "pending", showAll: true } } }), "get", "/tickets");
        return page.tickets.find((t) => t.contact?.number === number);
      }, 10_000, "the customer's ticket in the inbox");
      assert.equal(waiting.status, "pending");
      assert.equal(waiting.contact?.name, "Cliente Tipado");

      const accepted = answer(
        await admin.PUT("/tickets/{id}", { params: { path: { id: waiting.id } }, body: { status: "open", userId: session.user.id } }),
        "put",
        "/tickets/{id}",
      );
      assert.equal(accepted.status, "open");
      assert.equal(accepted.userId, session.user.id);
      assert.equal(accepted.user?.id, session.user.id);

      const sent = answer(
        await admin.POST("/messages/{id}", { params: { path: { id: waiting.id } }, body: { body: "Olá! Já vou ajudar." } }),
        "post",
        "/messages/{id}",
      );
      assert.equal(sent.message.ticketId, waiting.id);
      assert.equal(sent.message.fromMe, true);
      assert.match(sent.message.body, /Olá! Já vou ajudar\./);
      const thread = answer(await admin.GET("/messages/{id}", { params: { path: { id: waiting.id } } }), "get", "/messages/{id}");
      assert.equal(thread.ticket.id, waiting.id);
      assert.ok(thread.messages.some((m) => m.id === sent.message.id && m.contact?.name === "Cliente Tipado"), JSON.stringify(thread.messages));

      // Another system sends to the same customer with the connection's token.
      const external = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${connection.token}` } });
      const pushed = answer(
        await external.POST("/api/messages/send", { body: { number, body: "Seu pedido saiu para entrega", openTicket: 0 } }),
        "post",
        "/api/messages/send",
      );
      assert.equal(pushed.ticket.id, waiting.id, "the customer's open ticket carries it");
      assert.deepEqual(pushed.messages.map((m) => m.body), ["Seu pedido saiu para entrega"]);

      // The subscription delivered each new message (the customer's, the reply, the system's).
      const log = await eventually(async () => {
        const read = answer(
          await admin.GET("/webhooks/subscriptions/{id}/deliveries", { params: { path: { id: subscription.id } } }),
          "get",
          "/webhooks/subscriptions/{id}/deliveries",
        );
        return read.pending === 0 && read.deliveries.length >= 3 ? read : undefined;
      }, 10_000, "three finished deliveries");
      assert.ok(log.deliveries.every((d) => d.event === "message.created" && d.status === "delivered" && d.statusCode === 200), JSON.stringify(log));
      const bodies = receiver.received.map((r) => r.json?.data?.message?.body as string);
      for (const text of ["Oi, preciso de ajuda", "Seu pedido saiu para entrega"]) assert.ok(bodies.includes(text), `${text} in ${bodies}`);
      assert.ok(bodies.some((b) => /Olá! Já vou ajudar\./.test(b)), `the reply in ${bodies}`);
    }, { webhookAllowPrivate: true, webhookRetry: { baseMs: 150, maxMs: 600, watchdogMs: 400, timeoutMs: 2000 } });
  } finally {
    await receiver.stop();
  }
});
