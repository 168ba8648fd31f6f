/**
 * The live half of one connection's session: its adapter (an I/O handle, never persisted),
 * its send queue with the anti-ban pacer and retries, and the routing of adapter events —
 * status changes to the session actor (in order), inbound messages to the inbound path,
 * acks, edits and deletes to the messages area.
 */
import { type AdapterEvent, type ChannelAdapter, FINAL_SEND_ERRORS, type InboundMessage, type OutboundRequest } from "../../domain/channel.ts";
import { AppError } from "../../domain/errors.ts";
import { emptyPacer, nextSlot, type PacerState, type PacingConfig } from "../../domain/pacing.ts";
import type { Provider, Whatsapp } from "../../domain/whatsapp.ts";
import { reportSession, type SessionInput } from "../../actors/sessions/mod.ts";
import type { AppDeps } from "../deps.ts";
import { applyAck, applyProviderFailure, applyRemoteDelete, applyRemoteEdit, recordSendResult } from "../../actors/messages/mod.ts";
import { handleInbound, linkLid } from "./inbound.ts";
import { importUpserts } from "./contact_upserts.ts";
import { handleCall } from "../conversation/calls.ts";
import type { AdapterFactory } from "./types.ts";
import { outboxKey } from "../../actors/messages/keys.ts";
import type { ChannelTraffic } from "./traffic.ts";
import { log } from "../../actors/_runtime/log.ts";

export { outboxKey };

/** Tunables of a live session. */
export interface LiveOptions {
  pacing: PacingConfig;
  /** Waits before the 2nd, 3rd… send attempt; its length + 1 is the number of tries. */
  retryDelays: number[];
  random: () => number;
}

/** An inbound message under way: stored yet (true, or why not), and who waits for it. */
interface Storing {
  outcome: true | { error: unknown } | null;
  waiter: PromiseWithResolvers<void> | null;
}

/** A wait that does not keep the process alive on its own (shutdown never waits for pacing). */
const sleep = (ms: number) =>
  new Promise<void>((resolve) => {
    const id = setTimeout(resolve, ms);
    Deno.unrefTimer(id);
  });

export class LiveSession {
  readonly adapter: ChannelAdapter;
  readonly provider: Provider;
  #deps: AppDeps;
  #options: () => LiveOptions;
  #statusChain: Promise<unknown> = Promise.resolve();
  #sendChain: Promise<void> = Promise.resolve();
  #pacer: PacerState = emptyPacer();
  #pacerChain: Promise<void> = Promise.resolve();
  /** Provider ids whose send result is still being recorded: acks wait for them. */
  #recording = new Map<string, Promise<unknown>>();
  #closed = false;
  #inflight = new Set<Promise<unknown>>();
  /**
   * The LID link in progress, if any. A link waits for the messages received before it and
   * messages received meanwhile wait for it: a message handled during a merge could create
   * a ticket for the contact the merge is deleting.
   */
  #linking: Promise<void> = Promise.resolve();
  /** Message ids in the send chain now. */
  #queued = new Set<string>();
  /** Inbound messages being handled, by provider id: settles once each is stored (see `stored`). */
  #storing = new Map<string, Storing>();
  /** This provider's message counts (traffic.ts): a field increment per message. */
  readonly #traffic: ChannelTraffic;

  constructor(
    deps: AppDeps,
    readonly companyId: number,
    readonly whatsappId: number,
    record: Whatsapp,
    factory: AdapterFactory,
    options: () => LiveOptions,
  ) {
    this.#deps = deps;
    this.#options = options;
    this.provider = record.provider;
    this.#traffic = deps.channels.traffic[record.provider];
    this.adapter = factory({
      companyId,
      whatsappId,
      kv: deps.kv,
      record,
      emit: (event) => this.#onEvent(event),
    });
  }

  /** Starts (or restarts) the adapter: OPENING, then whatever the adapter reports. */
  async open(): Promise<void> {
    this.#closed = false;
    await this.#report({ type: "opening" });
    try {
      await this.adapter.start();
    } catch (error) {
      this.#report({ type: "disconnected", loggedOut: false, reason: String(error) });
    }
    await this.#statusChain;
  }

  /** Settles when the inbound messages, sends and status changes under way are done. */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.#inflight]);
    await this.#sendChain;
    await this.#statusChain;
  }

  /** Stops the adapter without touching its auth; the record becomes DISCONNECTED. */
  async close(report = true): Promise<void> {
    this.#closed = true;
    await this.adapter.stop().catch(() => {});
    if (report) await this.#report({ type: "stopped" });
  }

  /** The session stayed OPENING too long (the actor's timer): TIMEOUT, adapter stopped. */
  async timedOut(): Promise<void> {
    await this.#report({ type: "openTimeout" });
  }

  /** Logs the adapter out (its auth is dropped: the next start shows a QR). */
  async logout(): Promise<void> {
    this.#closed = true;
    await this.adapter.logout().catch((error) => log.warn("Logout failed", { error: String(error) }));
    await this.#report({ type: "stopped" });
  }

  /** Waits for the pacer's next slot: every send of this connection goes through here. */
  pace(): Promise<void> {
    const turn = this.#pacerChain.then(async () => {
      const slot = nextSlot(this.#pacer, Date.now(), this.#options().pacing, this.#options().random());
      this.#pacer = slot.state;
      const wait = slot.at - Date.now();
      if (wait > 0) await sleep(wait);
    });
    this.#pacerChain = turn;
    return turn;
  }

  /**
   * Runs one inbound message through the inbound path; resolves once it is handled (stored,
   * then the bot's turn and the rest).
   */
  receive(message: InboundMessage): ReturnType<typeof handleInbound> {
    this.#traffic.inbound++;
    const id = message.providerId;
    const entry: Storing = { outcome: null, waiter: null };
    const settle = (outcome: Storing["outcome"]) => {
      if (entry.outcome !== null) return;
      entry.outcome = outcome;
      if (outcome !== true) entry.waiter?.reject(outcome?.error);
      else entry.waiter?.resolve();
    };
    const work = this.#linking.then(() => handleInbound(this.#deps, this, message, () => settle(true)));
    this.#inflight.add(work);
    this.#storing.set(id, entry);
    const done = () => {
      this.#inflight.delete(work);
      if (this.#storing.get(id) === entry) this.#storing.delete(id);
    };
    // Ignored and duplicate messages store nothing: handled is as far as they go.
    work.then(() => {
      settle(true);
      done();
    }, (error) => {
      settle({ error });
      done();
    });
    return work;
  }

  /**
   * Settles once inbound message `providerId`, received and not yet handled, is durable (or
   * rejects with why it could not be stored); undefined when no such message is under way.
   * The simulator answers its poster after this, so an acknowledged message survives a crash.
   * The promise is made here, for the one who asks: most messages are never asked about.
   */
  stored(providerId: string): Promise<void> | undefined {
    const entry = this.#storing.get(providerId);
    if (!entry) return undefined;
    if (entry.outcome === true) return Promise.resolve();
    if (entry.outcome !== null) return Promise.reject(entry.outcome.error);
    return (entry.waiter ??= Promise.withResolvers<void>()).promise;
  }

  /**
   * Queues an outgoing message whose outbox entry is stored (with the message: actors/messages/
   * keys.ts `outboxKey`); sends are one at a time, in order, paced and retried.
   */
  send(request: OutboundRequest): Promise<void> {
    this.#enqueue(request);
    return Promise.resolve();
  }

  /** Queues again what the durable outbox still holds (after a restart or a reconnect). */
  async replay(): Promise<number> {
    let count = 0;
    const prefix = ["outbox", this.companyId, this.whatsappId];
    for await (const entry of this.#deps.kv.list<OutboundRequest>({ prefix })) {
      if (this.#enqueue(entry.value)) count++;
    }
    return count;
  }

  /** Adds a send to the chain unless it is already queued; true when added. */
  #enqueue(request: OutboundRequest): boolean {
    if (this.#queued.has(request.messageId)) return false;
    this.#queued.add(request.messageId);
    const done = this.#sendChain.then(() => this.#deliver(request))
      .finally(() => this.#queued.delete(request.messageId));
    this.#sendChain = done.catch(() => {});
    return true;
  }

  /** Settles when every queued send so far is done (tests, shutdown). */
  drained(): Promise<void> {
    return this.#sendChain;
  }

  async #deliver(request: OutboundRequest): Promise<void> {
    const { companyId, ticketId, messageId, message } = request;
    const system = this.#deps.system;
    let lastError: unknown;
    for (let attempt = 0; attempt <= this.#options().retryDelays.length; attempt++) {
      if (attempt > 0) await sleep(this.#options().retryDelays[attempt - 1]);
      // Closed (shutdown, admin stop): the durable outbox keeps it for the next connection.
      if (this.#closed) return;
      if (attempt > 0) this.#traffic.retries++;
      try {
        await this.pace();
        const { providerId } = message.media
          ? await this.adapter.sendMedia(message)
          : await this.adapter.sendText(message);
        this.#traffic.outbound++;
        const recorded = recordSendResult(system, companyId, ticketId, messageId, { providerId });
        this.#recording.set(providerId, recorded);
        try {
          await recorded;
        } finally {
          this.#recording.delete(providerId);
        }
        await this.#deps.kv.delete(outboxKey(request));
        return;
      } catch (error) {
        lastError = error;
        if (error instanceof AppError && FINAL_SEND_ERRORS.includes(error.code)) {
          // A refusal no retry can fix: failed at once, with its own code.
          this.#traffic.failed++;
          await recordSendResult(system, companyId, ticketId, messageId, { error: error.message, final: true, code: error.code })
            .catch((e) => log.error("Recording a failed send failed", { error: e }));
          await this.#deps.kv.delete(outboxKey(request));
          return;
        }
        if (attempt < this.#options().retryDelays.length) {
          await recordSendResult(system, companyId, ticketId, messageId, { error: "ERR_SENDING_WAPP_MSG", final: false })
            .catch(() => {});
        }
      }
    }
    this.#traffic.failed++;
    log.warn(`Send of message ${messageId} on connection ${this.whatsappId} failed:`, { error: String(lastError) });
    await recordSendResult(system, companyId, ticketId, messageId, {
      error: "ERR_SENDING_WAPP_MSG",
      final: true,
    }).catch((error) => log.error("Recording a failed send failed", { error }));
    await this.#deps.kv.delete(outboxKey(request));
  }

  #report(input: SessionInput): Promise<unknown> {
    const step = this.#statusChain.then(async () => {
      const result = await reportSession(this.#deps.system, this.companyId, this.whatsappId, input);
      if (result.stop && !this.#closed) {
        this.#closed = true;
        await this.adapter.stop().catch(() => {});
      }
      return result;
    });
    this.#statusChain = step.catch((error) => log.error("Session transition failed", { error }));
    return this.#statusChain;
  }

  #onEvent(event: AdapterEvent): void {
    const { system } = this.#deps;
    const { companyId, whatsappId } = this;
    const failed = (what: string) => (error: unknown) =>
      log.error(`${what} on connection ${whatsappId} failed:`, { error });
    switch (event.type) {
      case "qr":
        this.#report({ type: "qr", qrcode: event.qrcode });
        return;
      case "pairing":
        this.#report({ type: "pairing" });
        return;
      case "connected":
        this.#closed = false;
        this.#report({ type: "connected", number: event.number })
          .then(() => this.#closed ? 0 : this.replay())
          // A session closed meanwhile (a stop, a company handed over) replays at its next start.
          .catch((error) => this.#closed || failed("Outbox replay")(error));
        return;
      case "disconnected":
        if (this.#closed) return;
        this.#report({ type: "disconnected", loggedOut: event.loggedOut, reason: event.reason });
        return;
      case "message":
        this.receive(event.message).catch(failed("Inbound message"));
        return;
      case "ack": {
        const pending = this.#recording.get(event.providerId) ?? Promise.resolve();
        pending.catch(() => {}).then(() => applyAck(system, companyId, event.providerId, event.ack))
          .catch(failed("Ack"));
        return;
      }
      case "failed": {
        const pending = this.#recording.get(event.providerId) ?? Promise.resolve();
        pending.catch(() => {}).then(() => applyProviderFailure(system, companyId, event.providerId, event.code))
          .catch(failed("Provider failure"));
        return;
      }
      case "edit":
        applyRemoteEdit(system, companyId, event.providerId, event.body).catch(failed("Remote edit"));
        return;
      case "delete":
        applyRemoteDelete(system, companyId, event.providerId).catch(failed("Remote delete"));
        return;
      case "call":
        handleCall(this.#deps, { companyId, whatsappId }, event, () => this.adapter.rejectCall?.(event.callId, event.from) ?? Promise.resolve())
          .catch(failed("Call"));
        return;
      case "contacts":
        importUpserts(system, companyId, event.contacts).catch(failed("Contact upserts"));
        return;
      case "lid":
        this.#linking = Promise.allSettled([...this.#inflight, this.#linking])
          .then(() => linkLid(system, companyId, event.lid, event.number))
          .catch(failed("LID link"));
        return;
    }
  }
}
