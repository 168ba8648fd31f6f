/**
 * The channel registry of one server (`deps.channels`): the live session of every started
 * connection, keyed by company and connection. It starts, stops and resumes adapters, is the
 * `SessionHost` the session actors' reconnect timers call, and implements the outbound port
 * the messages area sends through.
 */
import { attachSessionHost, type SessionHost } from "../../actors/sessions/mod.ts";
import { companies, PLATFORM } from "../../actors/platform/collections.ts";
import { whatsapps } from "../../actors/whatsapps/collection.ts";
import type { OutboundChange, OutboundMessage, OutboundPort, OutboundRequest, PhoneContact } from "../../domain/channel.ts";
import { AppError, type ErrorCode, notFound } from "../../domain/errors.ts";
import type { PacingConfig } from "../../domain/pacing.ts";
import type { Provider, Whatsapp } from "../../domain/whatsapp.ts";
import { recordSendResult } from "../../actors/messages/mod.ts";
import type { AppDeps } from "../deps.ts";
import { outboxKey } from "../../actors/messages/keys.ts";
import { LiveSession, type LiveOptions } from "./live_session.ts";
import { SimulatorAdapter } from "./simulator.ts";
import { BaileysAdapter, baileysSocket } from "./baileys.ts";
import { EvolutionAdapter, type EvolutionConfig, evolutionWebhookSecret } from "./evolution.ts";
import { CloudApiAdapter } from "./cloudapi.ts";
import { DEFAULT_GRAPH_API_URL } from "../config.ts";
import type { AdapterFactories } from "./types.ts";
import { newTraffic, type Traffic } from "./traffic.ts";
import { DEFAULT_DROP_GRACE_MS } from "../../domain/connection_alert.ts";
import { log } from "../../actors/_runtime/log.ts";

/** Options of the registry; tests replace factories (fake Baileys socket) and timings. */
export interface ChannelsOptions {
  factories?: AdapterFactories;
  /** Pacing per provider; the simulator sends no real traffic, so it gets a loose limit. */
  pacing?: Partial<Record<Provider, PacingConfig>>;
  retryDelays?: number[];
  random?: () => number;
  /** The Evolution API server (env BALCAO_EVOLUTION_URL, _APIKEY; BALCAO_PUBLIC_URL for its webhook). */
  evolution?: EvolutionConfig;
  /** How long a connection may be down before its admins are told (Config.sessionDropGraceMs). */
  dropGraceMs?: number;
}

/** Safe anti-ban defaults for real WhatsApp numbers; env BALCAO_SEND_PER_MINUTE / _JITTER_MS. */
function defaultPacing(): Record<Provider, PacingConfig> {
  const env = (name: string) => {
    try {
      return Deno.env.get(name);
    } catch {
      return undefined;
    }
  };
  const real: PacingConfig = {
    perMinute: Number(env("BALCAO_SEND_PER_MINUTE") ?? 40),
    jitterMs: Number(env("BALCAO_SEND_JITTER_MS") ?? 1500),
  };
  return {
    simulator: { perMinute: 6000, jitterMs: 0 },
    baileys: real,
    evolution: real,
    // The official API bans nobody for volume: only its throughput limit (80 messages/s).
    cloudapi: { perMinute: 80 * 60, jitterMs: 0 },
    beta: real,
  };
}

/** Evolution settings from the environment. */
function defaultEvolution(deps: AppDeps | undefined): EvolutionConfig {
  const env = (name: string) => {
    try {
      return Deno.env.get(name);
    } catch {
      return undefined;
    }
  };
  return {
    baseUrl: env("BALCAO_EVOLUTION_URL") ?? "http://127.0.0.1:8081",
    apiKey: env("BALCAO_EVOLUTION_APIKEY") ?? "",
    webhookBase: deps?.config.publicUrl ?? `http://127.0.0.1:${deps?.config.port ?? 8080}`,
  };
}

const key = (companyId: number, whatsappId: number) => `${companyId}:${whatsappId}`;

/** Passes an AppError on; wraps anything else a provider threw in `code`. */
const rethrow = (code: ErrorCode, status: number, message: string) => (cause: unknown): never => {
  throw cause instanceof AppError ? cause : new AppError(code, { status, message, cause });
};

export class Channels implements SessionHost {
  /** What the connections moved, per provider (traffic.ts; read by server/metrics). */
  readonly traffic: Traffic = newTraffic();
  /** SessionHost: the grace period of a dropped connection (actors/sessions/drops.ts). */
  readonly dropGraceMs: number;
  #deps?: AppDeps;
  #live = new Map<string, LiveSession>();
  #factories: AdapterFactories;
  #pacing: Record<Provider, PacingConfig>;
  #retryDelays: number[];
  #random: () => number;
  #evolution?: EvolutionConfig;

  constructor(options: ChannelsOptions = {}) {
    this.#factories = {
      simulator: (ctx) => new SimulatorAdapter(ctx),
      baileys: (ctx) => new BaileysAdapter(ctx, baileysSocket(this.#deps?.config.baileysWsUrl)),
      evolution: (ctx) =>
        new EvolutionAdapter(ctx, this.#evolution ?? defaultEvolution(this.#deps), () => {
          if (!this.#deps) throw new Error("Channels are not bound to a server");
          return evolutionWebhookSecret(this.#deps.secret, ctx.companyId, ctx.whatsappId);
        }),
      cloudapi: (ctx) =>
        new CloudApiAdapter(ctx, {
          baseUrl: this.#deps?.config.graphApiUrl ?? DEFAULT_GRAPH_API_URL,
          load: () => this.#record(ctx.companyId, ctx.whatsappId),
        }),
      ...options.factories,
    };
    this.#evolution = options.evolution;
    this.dropGraceMs = options.dropGraceMs ?? DEFAULT_DROP_GRACE_MS;
    this.#pacing = { ...defaultPacing(), ...options.pacing };
    this.#retryDelays = options.retryDelays ?? [1000, 3000];
    this.#random = options.random ?? Math.random;
  }

  /** Changes timings at run time (tests); applies to sessions started afterwards. */
  configure(options: Pick<ChannelsOptions, "pacing" | "retryDelays" | "random" | "evolution">): void {
    if (options.evolution) this.#evolution = options.evolution;
    if (options.pacing) this.#pacing = { ...this.#pacing, ...options.pacing };
    if (options.retryDelays) this.#retryDelays = options.retryDelays;
    if (options.random) this.#random = options.random;
  }

  /** Binds the registry to its server's deps (once, at start-up). */
  bind(deps: AppDeps): void {
    this.#deps = deps;
    attachSessionHost(deps.system, this);
  }

  /** Adds or replaces the adapter factory of a provider (Baileys, Evolution wiring). */
  setFactory(provider: Provider, factory: NonNullable<AdapterFactories[Provider]>): void {
    this.#factories[provider] = factory;
  }

  /** The live session of a connection, if started. */
  get(companyId: number, whatsappId: number): LiveSession | undefined {
    return this.#live.get(key(companyId, whatsappId));
  }

  /** The simulator phone of a connection whose provider is simulator (started on demand). */
  async simulator(companyId: number, whatsappId: number): Promise<SimulatorAdapter> {
    const record = await this.#record(companyId, whatsappId);
    if (!record || record.provider !== "simulator") {
      throw notFound("ERR_NO_WAPP_FOUND", `Connection ${whatsappId} is not a simulator connection`);
    }
    const live = this.get(companyId, whatsappId) ?? (await this.start(companyId, whatsappId));
    return live.adapter as SimulatorAdapter;
  }

  /** Starts (or restarts) the adapter of a connection; resolves when it reported its first state. */
  async start(companyId: number, whatsappId: number): Promise<LiveSession> {
    const deps = this.#need();
    const record = await this.#record(companyId, whatsappId);
    if (!record) throw notFound("ERR_NO_WAPP_FOUND", `Connection ${whatsappId} does not exist`);
    let live = this.get(companyId, whatsappId);
    if (live && live.provider !== record.provider) {
      await live.close(false);
      live = undefined;
    }
    if (!live) {
      const factory = this.#factories[record.provider];
      if (!factory) throw notFound("ERR_NO_WAPP_FOUND", `Provider ${record.provider} is not available`);
      live = new LiveSession(deps, companyId, whatsappId, record, factory, () => this.#options(record.provider));
      this.#live.set(key(companyId, whatsappId), live);
    } else {
      await live.adapter.stop().catch(() => {});
    }
    await live.open();
    return live;
  }

  /** SessionHost: a reconnect timer fired. */
  connect(companyId: number, whatsappId: number): void {
    this.start(companyId, whatsappId).catch((error) =>
      log.error(`Reconnect of connection ${whatsappId} failed:`, { error: String(error) })
    );
  }

  /** SessionHost: stop an adapter (keeps its auth). */
  halt(companyId: number, whatsappId: number): void {
    this.get(companyId, whatsappId)?.close().catch(() => {});
  }

  /** SessionHost: the session stayed OPENING too long. */
  timedOut(companyId: number, whatsappId: number): void {
    this.get(companyId, whatsappId)?.timedOut().catch(() => {});
  }

  /** Stops the adapter and marks the session DISCONNECTED (keeps auth). */
  async stop(companyId: number, whatsappId: number): Promise<void> {
    const live = this.get(companyId, whatsappId);
    if (live) await live.close();
  }

  /** Logs the connection out (auth dropped) and forgets the live session. */
  async logout(companyId: number, whatsappId: number): Promise<void> {
    const live = this.get(companyId, whatsappId) ??
      (await this.#record(companyId, whatsappId) ? await this.#detached(companyId, whatsappId) : undefined);
    if (!live) return;
    await live.logout();
  }

  /** Forgets a deleted connection: stops its adapter without reporting. */
  async forget(companyId: number, whatsappId: number): Promise<void> {
    const live = this.get(companyId, whatsappId);
    this.#live.delete(key(companyId, whatsappId));
    if (live) await live.close(false);
  }

  /**
   * After a restart: starts every connection that was working (CONNECTED, PAIRING, OPENING)
   * or waiting for a scan (qrcode), so paired sessions come back without a new QR. Waits
   * (up to 5 s) until they reported their first state.
   */
  async resumeAll(): Promise<number> {
    const deps = this.#need();
    const all = await companies.in(deps.system, PLATFORM).list();
    return (await Promise.all(all.map((company) => this.resumeCompany(company.id)))).reduce((a, b) => a + b, 0);
  }

  /**
   * `resumeAll` for one company: what a process does when it takes the company over (issue
   * #35). A session starts only where the company is held, so one number never has two.
   */
  async resumeCompany(companyId: number): Promise<number> {
    const deps = this.#need();
    const starts: Promise<unknown>[] = [];
    for (const w of await whatsapps.in(deps.system, companyId).list()) {
      if (w.status === "DISCONNECTED" || w.status === "TIMEOUT") continue;
      starts.push(this.start(companyId, w.id).catch((error) =>
        log.error(`Resuming connection ${w.id} failed:`, { error: String(error) })
      ));
    }
    // Local adapters (simulator, a paired Baileys socket) report at once; a remote one
    // (Evolution) must not hold the server's start-up longer than this.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const limit = new Promise((resolve) => timer = setTimeout(resolve, 5000));
    await Promise.race([Promise.all(starts), limit]);
    clearTimeout(timer);
    return starts.length;
  }

  /** The connections with a live session here, `companyId:whatsappId` (the cluster's node record). */
  liveKeys(): string[] {
    return [...this.#live.keys()];
  }

  /** Stops every adapter (server shutdown), without touching the records. */
  async closeAll(): Promise<void> {
    await this.#close([...this.#live.keys()]);
  }

  /**
   * Stops a company's adapters without touching the records: the process let the company go
   * (issue #35), and the process taking it resumes them.
   */
  async closeCompany(companyId: number): Promise<void> {
    await this.#close([...this.#live.keys()].filter((k) => k.startsWith(`${companyId}:`)));
  }

  async #close(keys: string[]): Promise<void> {
    const closing = keys.flatMap((k) => {
      const live = this.#live.get(k);
      this.#live.delete(k);
      return live ? [live] : [];
    });
    await Promise.all(closing.map((live) => live.close(false)));
    await Promise.all(closing.map((live) => live.settled()));
  }

  /** The outbound port of DESIGN §6: queue per connection, pacing, retries, results. */
  readonly outbound: OutboundPort = {
    send: (request: OutboundRequest) => {
      const live = this.get(request.companyId, request.whatsappId);
      if (live) return live.send(request);
      const { companyId, ticketId, messageId } = request;
      // No live session: a failed send of the connection's provider (looked up off the hot path).
      this.#record(companyId, request.whatsappId).then((record) => record && this.traffic[record.provider].failed++, () => {});
      const { system, kv } = this.#need();
      return recordSendResult(system, companyId, ticketId, messageId, {
        error: "ERR_WAPP_NOT_INITIALIZED",
        final: true,
      }).then(() => kv.delete(outboxKey(request))).then(() => {}, (error) => log.error("Recording a failed send failed", { error }));
    },
    ready: async (companyId: number, whatsappId: number) => {
      const record = await this.#record(companyId, whatsappId);
      return record?.status === "CONNECTED" && this.get(companyId, whatsappId) !== undefined;
    },
    edit: async (request: OutboundChange & { body: string }) => {
      const live = await this.#sendable(request.companyId, request.whatsappId);
      await live.pace();
      await live.adapter.edit(request.to, request.providerId, request.body).catch((cause) => {
        throw cause instanceof AppError ? cause : new AppError("ERR_FETCH_WAPP_MSG", { status: 400, message: "The message can no longer be edited", cause });
      });
    },
    delete: async (request: OutboundChange) => {
      const live = await this.#sendable(request.companyId, request.whatsappId);
      await live.pace();
      await live.adapter.delete(request.to, request.providerId, request.fromMe).catch((cause) => {
        throw cause instanceof AppError ? cause : new AppError("ERR_DELETE_WAPP_MSG", { status: 400, message: "Deleting the message failed", cause });
      });
    },
  };

  /**
   * Waits for the connection's next anti-ban slot: campaigns and any other sender that does
   * not go through `outbound.send` call this before each send.
   */
  async pace(companyId: number, whatsappId: number): Promise<void> {
    await (await this.#sendable(companyId, whatsappId)).pace();
  }

  /**
   * Sends one message at once after the connection's shared anti-ban slot, outside the
   * send queue, and resolves when the provider accepted it (campaigns: their engine keeps its
   * own durable rows and waits for each accept, so a live reply never queues behind them).
   */
  async sendPaced(companyId: number, whatsappId: number, message: OutboundMessage): Promise<{ providerId: string }> {
    const live = await this.#sendable(companyId, whatsappId);
    await live.pace();
    const traffic = this.traffic[live.provider];
    try {
      const sent = message.media ? await live.adapter.sendMedia(message) : await live.adapter.sendText(message);
      traffic.outbound++;
      return sent;
    } catch (error) {
      traffic.failed++;
      throw error;
    }
  }

  /** Whether `number` has WhatsApp (paced like a send); `ERR_WAPP_CHECK_CONTACT` on failure. */
  async checkNumber(companyId: number, whatsappId: number, number: string): Promise<{ exists: boolean; jid?: string }> {
    const live = await this.#sendable(companyId, whatsappId);
    await live.pace();
    try {
      return await live.adapter.checkNumber(number);
    } catch (cause) {
      throw new AppError("ERR_WAPP_CHECK_CONTACT", { status: 400, message: `Checking ${number} failed`, cause });
    }
  }

  /** The profile picture URL of `number` (paced), or null; for contacts' lazy pictures. */
  async profilePicture(companyId: number, whatsappId: number, number: string): Promise<string | null> {
    const live = await this.#sendable(companyId, whatsappId);
    await live.pace();
    return await live.adapter.profilePicture(number).catch(() => null);
  }

  /** Marks messages of a chat as read on the phone (paced); failures are logged, not thrown. */
  async markRead(companyId: number, whatsappId: number, to: string, providerIds: string[]): Promise<void> {
    const live = await this.#sendable(companyId, whatsappId);
    await live.pace();
    await live.adapter.markRead(to, providerIds).catch((error) => log.warn("Mark read failed", { error: String(error) }));
  }

  /**
   * Creates a WhatsApp group on the connection (paced); resolves with its id (digits).
   * `ERR_WAPP_NOT_INITIALIZED` when not connected, `ERR_CREATING_TICKET` when WhatsApp refuses.
   */
  async createGroup(companyId: number, whatsappId: number, title: string, participants: string[]): Promise<{ id: string }> {
    const adapter = await this.#groups(companyId, whatsappId);
    return await adapter.createGroup!(title, participants).catch(rethrow("ERR_CREATING_TICKET", 400, "Creating the group failed"));
  }

  /** The participants' numbers of a group (paced); `ERR_NO_CONTACT_FOUND` when WhatsApp has no such group. */
  async groupParticipants(companyId: number, whatsappId: number, groupId: string): Promise<string[]> {
    const adapter = await this.#groups(companyId, whatsappId);
    return await adapter.groupParticipants!(groupId).catch(rethrow("ERR_NO_CONTACT_FOUND", 404, `Group ${groupId} not found`));
  }

  /** Adds participants (numbers) to a group (paced); `ERR_WAPP_INVALID_CONTACT` when WhatsApp refuses. */
  async addGroupParticipants(companyId: number, whatsappId: number, groupId: string, participants: string[]): Promise<void> {
    const adapter = await this.#groups(companyId, whatsappId);
    await adapter.addGroupParticipants!(groupId, participants).catch(rethrow("ERR_WAPP_INVALID_CONTACT", 400, "Adding to the group failed"));
  }

  /**
   * The contacts of the connection's phone (its address book), for `POST /contacts/import`.
   * Not paced: adapters answer from what they hold or from their engine's store, no WhatsApp
   * traffic. `ERR_WAPP_NOT_INITIALIZED` 400 when not connected, 501 when the provider cannot list;
   * `ERR_WAPP_CHECK_CONTACT` 502 when the engine fails.
   */
  async phoneContacts(companyId: number, whatsappId: number): Promise<PhoneContact[]> {
    return await this.#list(companyId, whatsappId, "phoneContacts");
  }

  /** The counterparts of the connection's individual chats, for `POST /contacts/import/chats`; as phoneContacts. */
  async chatContacts(companyId: number, whatsappId: number): Promise<PhoneContact[]> {
    return await this.#list(companyId, whatsappId, "chatContacts");
  }

  async #list(companyId: number, whatsappId: number, what: "phoneContacts" | "chatContacts"): Promise<PhoneContact[]> {
    const live = await this.#sendable(companyId, whatsappId);
    const list = live.adapter[what]?.bind(live.adapter);
    if (!list) {
      throw new AppError("ERR_WAPP_NOT_INITIALIZED", {
        status: 501,
        message: `Connection ${whatsappId} (${live.provider}) cannot list its ${what === "phoneContacts" ? "contacts" : "chats"}`,
      });
    }
    try {
      return await list();
    } catch (cause) {
      if (cause instanceof AppError && cause.code === "ERR_WAPP_NOT_INITIALIZED") throw cause;
      const detail = cause instanceof Error ? `: ${cause.message}` : "";
      throw new AppError("ERR_WAPP_CHECK_CONTACT", { status: 502, message: `Listing the ${what === "phoneContacts" ? "contacts" : "chats"} of connection ${whatsappId} failed${detail}`, cause });
    }
  }

  /** The adapter of a connected connection that manages groups, after its pacing slot. */
  async #groups(companyId: number, whatsappId: number) {
    const live = await this.#sendable(companyId, whatsappId);
    const adapter = live.adapter;
    if (!adapter.createGroup || !adapter.groupParticipants || !adapter.addGroupParticipants) {
      throw new AppError("ERR_WAPP_NOT_INITIALIZED", { status: 400, message: `Connection ${whatsappId} cannot manage groups` });
    }
    await live.pace();
    return adapter;
  }

  /** The live session of a connected connection, or `ERR_WAPP_NOT_INITIALIZED`. */
  async #sendable(companyId: number, whatsappId: number): Promise<LiveSession> {
    const live = this.get(companyId, whatsappId);
    if (!live || !(await this.outbound.ready(companyId, whatsappId))) {
      throw new AppError("ERR_WAPP_NOT_INITIALIZED", { status: 400, message: `Connection ${whatsappId} is not connected` });
    }
    return live;
  }

  async #detached(companyId: number, whatsappId: number): Promise<LiveSession | undefined> {
    const record = await this.#record(companyId, whatsappId);
    const factory = record && this.#factories[record.provider];
    if (!record || !factory) return undefined;
    const live = new LiveSession(this.#need(), companyId, whatsappId, record, factory, () => this.#options(record.provider));
    this.#live.set(key(companyId, whatsappId), live);
    return live;
  }

  #options(provider: Provider): LiveOptions {
    return { pacing: this.#pacing[provider], retryDelays: this.#retryDelays, random: this.#random };
  }

  #record(companyId: number, whatsappId: number): Promise<Whatsapp | undefined> {
    return whatsapps.in(this.#need().system, companyId).get(whatsappId);
  }

  #need(): AppDeps {
    if (!this.#deps) throw new Error("Channels used before bind(deps)");
    return this.#deps;
  }
}
