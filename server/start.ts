/**
 * Starts a whole server: opens KV, builds the actor system and deps, seeds the demo when
 * asked, warms the read models, and serves HTTP. `npm start` and every integration test use
 * this same function, tests with `port: 0` and `kvPath: ":memory:"`.
 */
import { ActorSystem } from "../actors/_runtime/system.ts";
import { EventBus } from "../actors/_runtime/bus.ts";
import { createApp } from "./app.ts";
import { type Config, loadConfig } from "./config.ts";
import type { AppDeps } from "./deps.ts";
import { KvThrottle } from "./auth/throttle_kv.ts";
import { loadSecret } from "./secret.ts";
import { AccessTokenVerifier } from "./auth/access_cache.ts";
import { registerActors, warmUp } from "./boot.ts";
import { seedDemo, storeIsEmpty } from "./seed/demo.ts";
import { Hub } from "./realtime/hub.ts";
import { Channels } from "./channels/registry.ts";
import { startWebhooks } from "./webhooks/mod.ts";
import { watchQueuePositions } from "./conversation/positions.ts";
import { bindSchedulePorts } from "../actors/schedules/mod.ts";
import { bindContactListPorts } from "../actors/contact_lists/mod.ts";
import { contactListNumberCheck } from "./contact_lists/number_check.ts";
import { scheduleSender } from "./api/schedule_send.ts";
import { bindCampaignPorts } from "../actors/campaigns/mod.ts";
import { campaignSender } from "./campaigns/sender.ts";
import { bindTicketPorts } from "../actors/tickets/ports.ts";
import { automaticTicketPorts } from "./api/ticket_automatic.ts";
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
  close(): Promise<void>;
}

/** Everything a server runs on one store, up to (not including) listening. */
interface Core {
  deps: AppDeps;
  demo?: Awaited<ReturnType<typeof seedDemo>>;
  history?: HistorySummary;
  /** Stops what runs on the store (webhooks, hub, channels, actors); the caller closes the store. */
  close(): Promise<void>;
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
  const seed = config.demo === true || (config.demo === "auto" && await storeIsEmpty(kv));
  // The demo with its thirty days goes into an empty store already played: in a file (or
  // remote) store every one of the history's ~600 commits waits for the disk, in memory it
  // does not. So it is played on a memory store and its keys are copied in (copy_store.ts).
  const staged = seed && config.demoHistory && config.kvPath !== ":memory:" && await storeIsEmpty(kv)
    ? await playedInMemory(config, kv)
    : undefined;
  const core = await assemble(config, kv, seed && !staged);
  const { deps } = core;
  const demo = staged?.demo ?? core.demo;
  const history = staged?.history ?? core.history;

  const app = createApp(deps);
  const abort = new AbortController();
  const { promise: listening, resolve } = Promise.withResolvers<Deno.NetAddr>();
  const server = Deno.serve(
    { port: config.port, hostname: "0.0.0.0", signal: abort.signal, onListen: resolve },
    app.fetch,
  );
  const addr = await listening;
  return {
    url: `http://127.0.0.1:${addr.port}`,
    port: addr.port,
    deps,
    demo,
    history,
    async close() {
      abort.abort();
      await server.finished;
      await core.close();
      kv.close();
      await core.deps.system.listening.catch(() => {});
    },
  };
}

/** The demo and its history played on a memory store, then copied into `kv` (empty). */
async function playedInMemory(config: Config, kv: Deno.Kv): Promise<Pick<Core, "demo" | "history">> {
  const memory = await Deno.openKv(":memory:");
  try {
    const core = await assemble({ ...config, kvPath: ":memory:" }, memory, true);
    await core.close();
    await copyStore(memory, kv, ["search_index"]);
    return { demo: core.demo, history: core.history };
  } finally {
    memory.close();
  }
}

/** Builds the actor system and deps on `kv`, seeds the demo when asked, warms up and binds. */
async function assemble(config: Config, kv: Deno.Kv, seed: boolean): Promise<Core> {
  const bus = new EventBus();
  // The wall clock, except while the demo's history replays the past (before listening).
  const clock = new ReplayClock();
  const system = new ActorSystem(kv, {
    bus,
    snapshotMinRecords: config.snapshotMinRecords,
    now: clock.now,
    senderNow: clock.senderNow,
    timersNow: clock.sharedNow,
  });
  registerActors(system);
  const channels = new Channels();
  const secret = await loadSecret(kv, config.secret);
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
    hub: new Hub(system, bus),
  };
  // Outbound webhooks: before anything publishes, so no event of this process is missed.
  const webhooks = startWebhooks(deps);
  // Before anything creates a ticket; a timer delivered earlier waits for these ports.
  bindTicketPorts(system, automaticTicketPorts(deps));
  const demo = seed ? await seedDemo(deps) : undefined;
  await warmUp(deps);
  await deps.hub.start();
  watchQueuePositions(deps);
  channels.bind(deps);
  await channels.resumeAll();
  // After the connections are back: a scheduled message due during the downtime waits for
  // these ports, then goes out through a connected session.
  bindSchedulePorts(system, scheduleSender(deps));
  bindContactListPorts(system, contactListNumberCheck(deps));
  bindCampaignPorts(system, campaignSender(deps));
  // The demo's thirty days, once everything a live server runs is bound (its paths play them).
  // A failure leaves the demo as far as it got: the product still starts.
  const history = demo && config.demoHistory
    ? await seedDemoHistory(deps, demo.companyId, clock).catch((error) => {
      console.error("The demo's history could not be written:", error);
      return undefined;
    })
    : undefined;
  return {
    deps,
    demo,
    history,
    async close() {
      webhooks.close();
      deps.hub.close();
      await channels.closeAll();
      await system.close();
    },
  };
}
