/**
 * Outbound webhook subscriptions (issue #22), mounted at `/webhooks/subscriptions` (beside,
 * never clashing with, the providers' inbound `/webhooks/evolution` and `/webhooks/cloudapi`):
 * - GET `/` → `{ subscriptions, count, hasMore }`, each with its pending count and last delivery;
 * - POST `/`, GET/PUT/DELETE `/{id}`: URL (http/https; a private or loopback host is refused
 *   unless the server allows it), events, secret (write-only: answered as the mask; required
 *   on create, kept on edit when sent empty or as the mask), active;
 * - GET `/{id}/deliveries` → `{ deliveries, pending, failures, retryAt }`, newest first;
 * - POST `/{id}/deliveries/{deliveryId}/resend` → `{ id }` of the new delivery.
 * Admins only (`settings:manage`), and the plan must have useExternalApi: webhooks are the
 * external API's other half (403 ERR_PLAN_FEATURE with the upgrade text otherwise).
 */
import { type Context, Hono } from "hono";
import {
  deliveryLog,
  kickTarget,
  purgeTarget,
  resendDelivery,
  webhookSubscriptions,
} from "../../actors/webhooks/mod.ts";
import { AppError, notFound } from "../../domain/errors.ts";
import { isPrivateHost } from "../../domain/network_address.ts";
import {
  nextSecret,
  subscriptionView,
  WEBHOOK_MSG,
  type WebhookSubscription,
  WebhookSubscriptionInput,
} from "../../domain/webhook.ts";
import { requireAuth, requirePermission } from "../auth/middleware.ts";
import { requirePlan } from "../auth/plan_gate.ts";
import type { AppDeps, AppEnv } from "../deps.ts";
import { idParam, parseBody } from "../http/validate.ts";

/** The 404 of a subscription that does not exist in the company. */
export const subscriptionMissing = (id: number | string) =>
  notFound("ERR_NOT_FOUND", `Webhook subscription ${id} does not exist`);

const fieldError = (field: string, message: string) =>
  new AppError("ERR_VALIDATION", { status: 400, message: `${field}: ${message}`, fields: { [field]: message } });

/** Refuses a private host unless the server allows it (domain/network_address.ts isPrivateHost). */
function checkHost(deps: AppDeps, url: string): void {
  if (!deps.config.webhookAllowPrivate && isPrivateHost(new URL(url).hostname)) {
    throw fieldError("url", WEBHOOK_MSG.privateUrl);
  }
}

/** A subscription as the list shows it: its view, pending count and last delivery. */
async function listRow(deps: AppDeps, s: WebhookSubscription) {
  const log = await deliveryLog(deps.system, s.companyId, `s${s.id}`, 1);
  const last = log.deliveries[0];
  return {
    ...subscriptionView(s),
    pending: log.pending,
    lastDelivery: last ? { status: last.status, statusCode: last.statusCode, createdAt: last.createdAt } : null,
  };
}

/** The subscription routes, mounted at `/webhooks/subscriptions`. */
export function webhookSubscriptionRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use("*", requireAuth(), requirePermission("settings:manage"), requirePlan("useExternalApi"));

  const coll = (c: Context<AppEnv>) =>
    webhookSubscriptions.in(c.get("deps").system, c.get("principal").companyId);

  app.get("/", async (c) => {
    const all = (await coll(c).list()).sort((a, b) => b.id - a.id);
    const rows = await Promise.all(all.map((s) => listRow(c.get("deps"), s)));
    return c.json({ subscriptions: rows, count: rows.length, hasMore: false });
  });

  app.post("/", async (c) => {
    const input = await parseBody(c, WebhookSubscriptionInput);
    checkHost(c.get("deps"), input.url);
    if (nextSecret("", input.secret) === "") throw fieldError("secret", WEBHOOK_MSG.secret);
    const companyId = c.get("principal").companyId;
    const created = await coll(c).create((id, now): WebhookSubscription => ({
      id,
      companyId,
      url: input.url,
      events: input.events,
      secret: input.secret,
      active: input.active,
      createdAt: now,
      updatedAt: now,
    }));
    return c.json(subscriptionView(created));
  });

  app.get("/:id", async (c) => {
    const id = idParam(c, "id", () => subscriptionMissing(c.req.param("id")));
    const found = await coll(c).get(id);
    if (!found) throw subscriptionMissing(id);
    return c.json(subscriptionView(found));
  });

  app.put("/:id", async (c) => {
    const id = idParam(c, "id", () => subscriptionMissing(c.req.param("id")));
    // Found in the caller's company before the body is judged (another company's id: 404).
    if (!(await coll(c).get(id))) throw subscriptionMissing(id);
    const input = await parseBody(c, WebhookSubscriptionInput);
    checkHost(c.get("deps"), input.url);
    const updated = await coll(c).update(id, (old, now) => ({
      ...old,
      url: input.url,
      events: input.events,
      secret: nextSecret(old.secret, input.secret),
      active: input.active,
      updatedAt: now,
    }), () => subscriptionMissing(id));
    // A fixed address or a switched-on subscription gets its pending deliveries going now.
    if (updated.active) await kickTarget(c.get("deps").system, updated.companyId, `s${id}`);
    return c.json(subscriptionView(updated));
  });

  app.delete("/:id", async (c) => {
    const id = idParam(c, "id", () => subscriptionMissing(c.req.param("id")));
    const removed = await coll(c).remove(id, () => subscriptionMissing(id));
    await purgeTarget(c.get("deps").system, removed.companyId, `s${id}`);
    return c.json({ message: "Webhook deleted" });
  });

  app.get("/:id/deliveries", async (c) => {
    const id = idParam(c, "id", () => subscriptionMissing(c.req.param("id")));
    const found = await coll(c).get(id);
    if (!found) throw subscriptionMissing(id);
    return c.json(await deliveryLog(c.get("deps").system, found.companyId, `s${id}`));
  });

  app.post("/:id/deliveries/:deliveryId/resend", async (c) => {
    const id = idParam(c, "id", () => subscriptionMissing(c.req.param("id")));
    const found = await coll(c).get(id);
    if (!found) throw subscriptionMissing(id);
    const newId = await resendDelivery(c.get("deps").system, found.companyId, `s${id}`, c.req.param("deliveryId"));
    return c.json({ id: newId });
  });

  return app;
}
