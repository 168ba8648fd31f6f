/**
 * The simulator's JSON endpoints (issue #4), for the simulator page (the customer's phone,
 * issue #37) and tests. Only for connections whose provider is `simulator`, with an admin
 * token of that company: the phones, a phone's chats and one chat as the customer sees it
 * (simulator_phone.ts), read receipts, scan, inbound (as any customer: text, media, a location,
 * a contact card), call (a customer calls), outbox, ack, disconnect (and `fail`, to test retries).
 */
import { type Context, Hono } from "hono";
import { notFound } from "../../domain/errors.ts";
import { FailInput, SimulatorAckInput, SimulatorCallInput, SimulatorInboundInput } from "../../domain/simulator.ts";
import type { AppEnv } from "../deps.ts";
import { requireAdmin, requireAuth } from "../auth/middleware.ts";
import { idParam, parseBody, parseWith } from "../http/validate.ts";
import QRCode from "qrcode";
import { whatsapps } from "../../actors/whatsapps/collection.ts";
import { PhoneReadInput } from "../../domain/phone_view.ts";
import { phoneChats, phoneThread, unreadByPhone } from "./simulator_phone.ts";

/** SVG of the QR code `text`, 256 px like the spec's dialog (the page draws its own; API callers read this). */
async function qrSvg(text: string): Promise<string> {
  return await QRCode.toString(text, { type: "svg", width: 256, margin: 1 });
}

const missing = (id: string | undefined) => () => notFound("ERR_NO_WAPP_FOUND", `Connection ${id} does not exist`);

export function simulatorRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const admin = [requireAuth(), requireAdmin()] as const;
  app.use("/:id/*", ...admin);

  const phone = (c: Context<AppEnv>) => {
    const id = idParam(c, "id", missing(c.req.param("id")));
    return c.get("deps").channels.simulator(c.get("principal").companyId, id);
  };
  const ids = (c: Context<AppEnv>) => ({
    companyId: c.get("principal").companyId,
    whatsappId: idParam(c, "id", missing(c.req.param("id"))),
  });

  // The company's simulated phones (the /simulator page; the page itself is server/pages' route).
  app.get("/", ...admin, async (c) => {
    const { system, channels } = c.get("deps");
    const { companyId } = c.get("principal");
    const phones = (await whatsapps.in(system, companyId).list()).filter((w) => w.provider === "simulator");
    return c.json({
      phones: await Promise.all(phones.map(async (w) => {
        const sim = await channels.simulator(companyId, w.id);
        return { id: w.id, name: w.name, number: w.number, status: w.status, connected: sim.connected, qrcode: sim.qrcode, pending: sim.pendingCount };
      })),
    });
  });

  app.get("/:id/chats", async (c) => {
    const { companyId, whatsappId } = ids(c);
    return c.json({ chats: await phoneChats(c.get("deps"), companyId, whatsappId, await phone(c)) });
  });

  app.get("/:id/chats/:number", async (c) => {
    const { companyId, whatsappId } = ids(c);
    const { number } = parseWith(PhoneReadInput, { number: c.req.param("number") });
    return c.json(await phoneThread(c.get("deps"), companyId, whatsappId, number, await phone(c)));
  });

  // The person opens the chat on the phone: every message of the company in it is read (ack 4).
  app.post("/:id/read", async (c) => {
    const { companyId, whatsappId } = ids(c);
    // Found in the caller's company before the body is judged (another company's id: 404).
    const sim = await phone(c);
    const { number } = await parseBody(c, PhoneReadInput);
    const unread = unreadByPhone(await phoneThread(c.get("deps"), companyId, whatsappId, number, sim));
    sim.receipts(unread, 4);
    return c.json({ read: unread.length });
  });

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
