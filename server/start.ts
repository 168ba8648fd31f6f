/**
 * Starts a whole server: opens KV, builds the actor system and deps, listens (only the probes
 * and the scrape answer until the start is done: server/readiness.ts), seeds the demo when
 * asked (config.ts demoWanted) or creates the configured owner, warms the read models, resumes
 * the WhatsApp sessions, and then serves everything. It resolves once the server is ready.
 * `npm start` and every integration test use this same function, tests with `port: 0` and
 * `kvPath: ":memory:"`.
 *
 * The demo with its thirty days (server/seed/history) goes into an empty store already played:
 * in a file store every one of the history's ~600 commits would wait for the disk, in memory
 * none does; and a server that listened while the history moved its clock through the past
 * would serve requests in that past. So a whole server that never listens plays it on a memory
 * store first, and its keys are copied in (copy_store.ts) before this store's system reads
 * anything. The probes answer only after that copy: it happens on a developer's first start
 * alone.
 */
import { ActorSystem } from "../actors/_runtime/system.ts";
import { EventBus } from "../actors/_runtime/bus.ts";
import { createApp } from "./app.ts";
import { type Config, demoWanted, loadConfig } from "./config.ts";
import type { AppDeps } from "./deps.ts";
import { KvThrottle } from "./auth/throttle_kv.ts";
import { loadSecret } from "./secret.ts";
import { AccessTokenVerifier } from "./auth/access_cache.ts";
import { registerActors, warmUp } from "./boot.ts";
import { seedDemo, storeIsEmpty } from "./seed/demo.ts";
import { ensureOwner, type OwnerOutcome } from "./seed/owner.ts";
import { Hub } from "./realtime/hub.ts";
import { Channels } from "./channels/registry.ts";
import { startWebhooks } from "./webhooks/mod.ts";
import { watchQueuePositions } from "./usecases/queue_position.ts";
import { bindSchedulePorts } from "../actors/schedules/mod.ts";
import { bindContactListPorts } from "../actors/contact_lists/mod.ts";
import { contactListNumberCheck } from "./contact_lists/number_check.ts";
import { scheduleSender } from "./usecases/schedule_send.ts";
import { bindCampaignPorts } from "../actors/campaigns/mod.ts";
import { campaignSender } from "./campaigns/sender.ts";
import { bindTicketPorts } from "../actors/tickets/ports.ts";
import { ticketPorts } from "./usecases/ticket_ports.ts";
import { allCompanyIds, ClusterMember } from "./cluster/member.ts";
import { companyRuntime } from "./cluster/company_runtime.ts";
import { clusterFetch } from "./cluster/router.ts";
import { Metrics } from "./metrics/mod.ts";
import { Readiness } from "./readiness.ts";
import { createLogger, log } from "../actors/_runtime/log.ts";
import { companies, PLATFORM } from "../actors/platform/collections.ts";
import { watchConnectionDrops } from "./channels/drop_alerts.ts";
import { ReplayClock } from "../actors/_runtime/replay_clock.ts";
import { type HistorySummary, seedDemoHistory } from "./seed/history/mod.ts";
import { copyStore } from "./seed/history/copy_store.ts";

export interface RunningServer {
  url: string;
  port: number;
  deps: AppDeps;
  /** Set when the demo was seeded: its logins. */
  demo?: Awaited<ReturnType<typeof seedDemo>>;
  /** Set when the demo's thirty days were written (config `demoHistory`). */
  history?: HistorySummary;
  /** What this start found or did about the platform owner (server/seed/owner.ts). */
  owner: OwnerOutcome;
  close(): Promise<void>;
}

/** Everything a server runs on one store, before and apart from its listener. */
interface Core {
  deps: AppDeps;
  /** The clock the demo's history moves (the wall clock otherwise). */
  clock: ReplayClock;
  /**
   * Stops what runs on the store: hands the companies over (a process of several), closes the
   * webhooks, alerts and sockets, then `listener` (the HTTP server's end, which waits for the
   * sockets), then the channels and the actors. The caller closes the store.
   */
  close(listener?: () => Promise<void>): Promise<void>;
}

/** What bringing a core up did: the demo it seeded, the history it played, the owner. */
interface BroughtUp {
  demo?: Awaited<ReturnType<typeof seedDemo>>;
  history?: HistorySummary;
  owner: OwnerOutcome;
}

export async function startServer(overrides: Partial<Config> = {}): Promise<RunningServer> {
  const config = { ...loadConfig(), ...overrides };
  if (config.kvPath !== ":memory:" && !config.kvPath.startsWith("http")) {
    await Deno.mkdir(new URL(".", `file://${Deno.realPathSync(".")}/${config.kvPath}`).pathname, {
      recursive: true,
    });
  }
  const opened = await Deno.openKv(config.kvPath);
  const kv = config.wrapKv?.(opened) ?? opened;
  // One of several processes over the store (issue #35): companies come by lease (cluster/).
  // The demo writes its companies' actors, which such a process runs only under a lease: seed
  // it with a process alone first (README "Running several processes").
  const clustered = config.node !== undefined;
  const empty = await storeIsEmpty(kv);
  const seed = !clustered && demoWanted(config, config.demo === "auto" && empty);
  const staged = seed && config.demoHistory && empty
    ? await playedInMemory(config, kv).catch((error) => {
      kv.close();
      throw error;
    })
    : undefined;

  const core = await assemble(config, kv).catch((error) => {
    kv.close();
    throw error;
  });
  const { deps } = core;
  // Listening from here: the probes answer during the start, everything else gets 503 until
  // the server is ready (server/readiness.ts).
  const app = createApp(deps);
  const abort = new AbortController();
  const { promise: listening, resolve } = Promise.withResolvers<Deno.NetAddr>();
  // A process of several serves its companies and sends the others' requests on (cluster/router.ts).
  const handler = deps.cluster ? clusterFetch(deps, deps.cluster, app.fetch) : app.fetch;
  const server = Deno.serve(
    { port: config.port, hostname: config.hostname, signal: abort.signal, onListen: resolve },
    handler,
  );
  const addr = await listening;
  const close = async () => {
    deps.readiness.enter("stopping");
    await core.close(async () => {
      abort.abort();
      await server.finished;
    });
    kv.close();
    await deps.system.listening.catch(() => {});
  };

  let up: BroughtUp;
  try {
    up = await bringUp(core, { seed: seed && !staged, history: false });
    // A process of several takes its companies now that it listens: the others forward their
    // requests to it at once.
    await deps.cluster?.start();
  } catch (error) {
    // A start that fails leaves no listener or store handle behind.
    await close().catch(() => {});
    throw error;
  }
  deps.readiness.enter("ready");
  return {
    url: `http://${localHost(config.hostname)}:${addr.port}`,
    port: addr.port,
    deps,
    demo: staged?.demo ?? up.demo,
    history: staged?.history ?? up.history,
    owner: up.owner,
    close,
  };
}

/** The demo and its history played on a memory store, then copied into `kv` (empty). */
async function playedInMemory(config: Config, kv: Deno.Kv): Promise<Pick<BroughtUp, "demo" | "history">> {
  const memory = await Deno.openKv(":memory:");
  try {
    const core = await assemble({ ...config, kvPath: ":memory:" }, memory);
    let up: BroughtUp;
    try {
      up = await bringUp(core, { seed: true, history: true });
    } finally {
      await core.close();
    }
    await copyStore(memory, kv, ["search_index"]);
    return { demo: up.demo, history: up.history };
  } finally {
    memory.close();
  }
}

/** Builds the actor system and deps on `kv`, and what must run before anything publishes. */
async function assemble(config: Config, kv: Deno.Kv): Promise<Core> {
  const bus = new EventBus();
  const clustered = config.node !== undefined;
  // The wall clock, except while the demo's history replays the past (before listening).
  const clock = new ReplayClock();
  const system = new ActorSystem(kv, {
    bus,
    snapshotMinRecords: config.snapshotMinRecords,
    cluster: clustered,
    now: clock.now,
    senderNow: clock.senderNow,
    timersNow: clock.sharedNow,
  });
  registerActors(system);
  const channels = new Channels({ dropGraceMs: config.sessionDropGraceMs });
  const secret = await loadSecret(kv, config.secret);
  const hub = new Hub(system, bus);
  const readiness = new Readiness();
  // A process alone holds every company; the cluster's leases (issue #35) replace this.
  const heldCompanies = async () => (await companies.in(system, PLATFORM).list()).map((c) => c.id);
  const deps: AppDeps = {
    config,
    kv,
    system,
    bus,
    secret,
    tokens: new AccessTokenVerifier(secret),
    throttle: new KvThrottle(kv),
    outbound: channels.outbound,
    channels,
    hub,
    readiness,
    log: config.logWrite || config.logLevel ? createLogger({ write: config.logWrite, level: config.logLevel }) : log,
    heldCompanies: () => heldCompanies(),
    metrics: new Metrics({
      system,
      traffic: channels.traffic,
      sockets: () => hub.stats(),
      readiness,
      heldCompanies: () => deps.heldCompanies(),
    }),
  };
  if (config.node) {
    const member = deps.cluster = new ClusterMember(kv, config.node, companyRuntime(deps), () => allCompanyIds(system), config.leaseMs);
    system.committer.fence = member.leases;
    // What /metrics and /ready count as held: this process's leases.
    deps.heldCompanies = () => Promise.resolve(member.leases.held);
  }
  // Outbound webhooks: before anything publishes, so no event of this process is missed.
  const webhooks = startWebhooks(deps);
  const drops = watchConnectionDrops(deps);
  // Before anything creates a ticket; a timer delivered earlier waits for these ports.
  bindTicketPorts(system, ticketPorts(deps));
  return {
    deps,
    clock,
    async close(listener) {
      // A graceful stop hands every company over at once (cluster/member.ts).
      await deps.cluster?.stop();
      webhooks.close();
      drops();
      hub.close();
      await listener?.();
      await channels.closeAll();
      await system.close();
    },
  };
}

/**
 * Seeds the demo when asked (or creates the configured owner), warms the read models, starts
 * the hub, resumes the sessions and binds the timers' ports; then, for a server that never
 * listens (playedInMemory), plays the demo's history through its app.
 */
async function bringUp({ deps, clock }: Core, { seed, history: withHistory }: { seed: boolean; history: boolean }): Promise<BroughtUp> {
  const { system, channels, config } = deps;
  const clustered = deps.cluster !== undefined;
  const demo = seed ? await seedDemo(deps) : undefined;
  // A real installation's owner, when configured and none exists yet (after the demo's, so
  // a store the demo was asked for keeps its own).
  const owner = await ensureOwner(deps);
  deps.readiness.enter("warming");
  // A process of several warms each company as it takes it (cluster/company_runtime.ts).
  await warmUp(deps, clustered ? [] : undefined);
  await deps.hub.start();
  watchQueuePositions(deps);
  deps.readiness.enter("resuming");
  channels.bind(deps);
  if (!clustered) await channels.resumeAll();
  // After the connections are back: a scheduled message due during the downtime waits for
  // these ports, then goes out through a connected session.
  bindSchedulePorts(system, scheduleSender(deps));
  bindContactListPorts(system, contactListNumberCheck(deps));
  bindCampaignPorts(system, campaignSender(deps));
  // The demo's thirty days, once everything a live server runs is bound (its paths play them).
  // A failure leaves the demo as far as it got: the product still starts.
  if (!demo || !withHistory) return { demo, owner };
  // The history's staff act through the app's routes, which serve a ready server only.
  deps.readiness.enter("ready");
  const history = config.demoHistory
    ? await seedDemoHistory(deps, demo.companyId, clock).catch((error) => {
      log.error("The demo's history could not be written", { error });
      return undefined;
    })
    : undefined;
  return { demo, history, owner };
}

/** How this machine reaches a server bound to `hostname` (any address: through loopback). */
function localHost(hostname: string): string {
  if (hostname === "0.0.0.0" || hostname === "") return "127.0.0.1";
  if (hostname === "::" || hostname === "::1") return "[::1]";
  return hostname.includes(":") ? `[${hostname}]` : hostname;
}
