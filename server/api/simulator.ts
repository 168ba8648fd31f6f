/**
 * The simulator's JSON endpoints (issue #4), for the simulator page and tests. Only for
 * connections whose provider is `simulator`, with an admin token of that company:
 * scan, inbound (as any customer), call (a customer calls), outbox, ack, disconnect (and
 * `fail`, to test retries).
 */
import { type Context, Hono } from "hono";
import { notFound } from "../../domain/errors.ts";
import { FailInput, SimulatorAckInput, SimulatorCallInput, SimulatorInboundInput } from "../../domain/simulator.ts";
import type { AppEnv } from "../deps.ts";
import { requireAdmin, requireAuth } from "../auth/middleware.ts";
import { idParam, parseBody } from "../http/validate.ts";
import { qrSvg, simulatorPage } from "../pages/simulator.ts";

const missing = (id: string | undefined) => () => notFound("ERR_NO_WAPP_FOUND", `Connection ${id} does not exist`);

export function simulatorRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get("/", (c) => c.html(simulatorPage()));
  app.use("/:id/*", requireAuth(), requireAdmin());

  const phone = (c: Context<AppEnv>) => {
    const id = idParam(c, "id", missing(c.req.param("id")));
    return c.get("deps").channels.simulator(c.get("principal").companyId, id);
  };

  app.get("/:id/qr", async (c) => {
    const sim = await phone(c);
    return c.json({ qrcode: sim.qrcode, svg: sim.qrcode ? await qrSvg(sim.qrcode) : "" });
  });

  app.post("/:id/scan", async (c) => {
    const sim = await phone(c);
    await sim.scan();
    return c.json({ connected: sim.connected });
  });

  app.post("/:id/inbound", async (c) => {
    const sim = await phone(c);
    const input = await parseBody(c, SimulatorInboundInput);
    const sent = sim.inbound(input);
    // Answered once stored, not once handed over: a message the poster saw acknowledged
    // survives a crash (issue #24), and a store that refuses writes answers 503. Queued
    // messages wait in the phone, as on a real one, until the session is back.
    if (!sent.queued) {
      const id = idParam(c, "id", missing(c.req.param("id")));
      await c.get("deps").channels.get(c.get("principal").companyId, id)?.stored(sent.providerId);
    }
    return c.json(sent);
  });

  app.post("/:id/call", async (c) => {
    const sim = await phone(c);
    const input = await parseBody(c, SimulatorCallInput);
    return c.json(sim.call(input));
  });

  app.get("/:id/outbox", async (c) => {
    const sim = await phone(c);
    return c.json({
      connected: sim.connected,
      qrcode: sim.qrcode,
      pending: sim.pendingCount,
      messages: sim.outbox,
      rejectedCalls: sim.rejectedCalls,
    });
  });

  app.post("/:id/ack", async (c) => {
    const sim = await phone(c);
    const input = await parseBody(c, SimulatorAckInput);
    return c.json(sim.ack(input.id, input.ack));
  });

  app.post("/:id/disconnect", async (c) => {
    const sim = await phone(c);
    sim.disconnect();
    return c.json({ connected: sim.connected });
  });

  app.post("/:id/fail", async (c) => {
    const sim = await phone(c);
    const { count } = await parseBody(c, FailInput);
    sim.failNext(count);
    return c.json({ failNext: count });
  });

  return app;
}
