/**
 * Turns the actors' bus events into deliveries of the company's subscriptions (issue #22).
 * The bus calls listeners synchronously, in the order the changes became durable, and an
 * `enqueueDelivery` enters the target's mailbox at once: so the deliveries of one ticket are
 * enqueued in the order of its changes, and the producer never waits for anything (not even
 * the enqueue's commit). A company whose subscriptions are not in memory yet has its events
 * held, in order, until they are loaded.
 */
import type { ActorSystem } from "../../actors/_runtime/system.ts";
import type { ScopedCollection } from "../../actors/collection/actor.ts";
import type { EventBus } from "../../actors/_runtime/bus.ts";
import { enqueueDelivery, webhookSubscriptions } from "../../actors/webhooks/mod.ts";
import type { BusEvent } from "../../domain/events.ts";
import { eventBody, type WebhookSubscription } from "../../domain/webhook.ts";
import { BoundedSeen, outgoingEvents } from "../../domain/webhook_events.ts";
import { log } from "../../actors/_runtime/log.ts";

/**
 * Whether events of `channel` may become webhook events (domain/webhook_events.ts): the
 * suffixes `-appMessage`, `-ticket`, `-contact` and `-whatsappSession`. Compared by their
 * ends rather than one regular expression: the router sees two events per inbound message.
 */
function isSource(channel: string): boolean {
  return channel.endsWith("-ticket") || channel.endsWith("-appMessage") || channel.endsWith("-contact") ||
    channel.endsWith("-whatsappSession");
}

/** The router of one server; `close` stops it. */
export class WebhookRouter {
  readonly #seen = new BoundedSeen();
  /** Events of companies whose subscriptions are loading, in bus order. */
  readonly #waiting = new Map<number, BusEvent[]>();
  /** Each company's subscriptions collection, addressed once rather than per event. */
  readonly #subscriptions = new Map<number, ScopedCollection<WebhookSubscription>>();
  readonly #unsubscribe: () => void;

  constructor(readonly system: ActorSystem, bus: EventBus) {
    this.#unsubscribe = bus.subscribe((event) => this.#onEvent(event));
  }

  close(): void {
    this.#unsubscribe();
  }

  #onEvent(event: BusEvent): void {
    const companyId = event.companyId;
    if (companyId === null || !isSource(event.channel)) return;
    const waiting = this.#waiting.get(companyId);
    if (waiting) {
      waiting.push(event);
      return;
    }
    let subscriptions = this.#subscriptions.get(companyId);
    if (!subscriptions) this.#subscriptions.set(companyId, subscriptions = webhookSubscriptions.in(this.system, companyId));
    const records = subscriptions.recordsNow();
    if (records) return this.#route(event, records);
    this.#waiting.set(companyId, [event]);
    subscriptions.records().then(
      (loaded) => this.#flush(companyId, loaded),
      (error) => {
        log.error(`Webhook subscriptions of company ${companyId} failed to load; events dropped`, { error });
        this.#waiting.delete(companyId);
      },
    );
  }

  #flush(companyId: number, records: ReadonlyMap<number, WebhookSubscription>): void {
    const events = this.#waiting.get(companyId) ?? [];
    this.#waiting.delete(companyId);
    for (const event of events) this.#route(event, records);
  }

  #route(event: BusEvent, records: ReadonlyMap<number, WebhookSubscription>): void {
    if (records.size === 0) return; // most companies have none: every event of theirs stops here
    const companyId = event.companyId!;
    const subs = [...records.values()].filter((s) => s.active);
    if (subs.length === 0) return;
    for (const out of outgoingEvents(event, this.#seen)) {
      let body: string | undefined;
      for (const sub of subs) {
        if (!sub.events.includes(out.event)) continue;
        body ??= eventBody(crypto.randomUUID(), out.event, companyId, Date.now(), out.data);
        enqueueDelivery(this.system, companyId, `s${sub.id}`, { event: out.event, lane: out.lane, body }).catch(
          (error) => log.error(`Webhook ${sub.id}: ${out.event} could not be enqueued`, { error }),
        );
      }
    }
  }
}
