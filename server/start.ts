/**
 * Starts a whole server: opens KV, builds the actor system and deps, seeds the demo when
 * asked (config.ts demoWanted) or creates the configured owner, warms the read models, and
 * serves HTTP. `npm start` and every integration test use this same function, tests with
 * `port: 0` and `kvPath: ":memory:"`.
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


export interface RunningServer {
  url: string;
  port: number;
  deps: AppDeps;
  /** Set when the demo was seeded: its logins. */
  demo?: Awaited<ReturnType<typeof seedDemo>>;
  /** What this start found or did about the platform owner (server/seed/owner.ts). */
  owner: OwnerOutcome;
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
  const bus = new EventBus();
  // One of several processes over the store (issue #35): companies come by lease (cluster/).
  const clustered = config.node !== undefined;
  const system = new ActorSystem(kv, { bus, snapshotMinRecords: config.snapshotMinRecords, cluster: clustered });
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
  if (config.node) {
    deps.cluster = new ClusterMember(kv, config.node, companyRuntime(deps), () => allCompanyIds(system), config.leaseMs);
    system.committer.fence = deps.cluster.leases;
  }
  // Outbound webhooks: before anything publishes, so no event of this process is missed.
  const webhooks = startWebhooks(deps);
  // Before anything creates a ticket; a timer delivered earlier waits for these ports.
  bindTicketPorts(system, ticketPorts(deps));
  // The demo writes its companies' actors, which a process of several runs only under a lease:
  // seed it with a process alone first (README "Running several processes").
  const seed = !clustered && demoWanted(config, config.demo === "auto" && await storeIsEmpty(kv));
  const demo = seed ? await seedDemo(deps) : undefined;
  // A real installation's owner, when configured and none exists yet (after the demo's, so
  // a store the demo was asked for keeps its own).
  const owner = await ensureOwner(deps);
  // A process of several warms each company as it takes it (cluster/company_runtime.ts).
  await warmUp(deps, clustered ? [] : undefined);
  await deps.hub.start();
  watchQueuePositions(deps);
  channels.bind(deps);
  if (!clustered) await channels.resumeAll();
  // After the connections are back: a scheduled message due during the downtime waits for
  // these ports, then goes out through a connected session.
  bindSchedulePorts(system, scheduleSender(deps));
  bindContactListPorts(system, contactListNumberCheck(deps));
  bindCampaignPorts(system, campaignSender(deps));

  const app = createApp(deps);
  const abort = new AbortController();
  const { promise: listening, resolve } = Promise.withResolvers<Deno.NetAddr>();
  const server = Deno.serve(
    { port: config.port, hostname: config.hostname, signal: abort.signal, onListen: resolve },
    app.fetch,
  );
  const addr = await listening;
  // Listening first: the companies it takes are forwarded to it by the others at once.
  await deps.cluster?.start();
  return {
    url: `http://${localHost(config.hostname)}:${addr.port}`,
    port: addr.port,
    deps,
    demo,
    owner,
    async close() {
      // A graceful stop hands every company over at once (cluster/member.ts).
      await deps.cluster?.stop();
      webhooks.close();
      deps.hub.close();
      abort.abort();
      await server.finished;
      await channels.closeAll();
      await system.close();
      kv.close();
      await system.listening.catch(() => {});
    },
  };
}

/** How this machine reaches a server bound to `hostname` (any address: through loopback). */
function localHost(hostname: string): string {
  if (hostname === "0.0.0.0" || hostname === "") return "127.0.0.1";
  if (hostname === "::" || hostname === "::1") return "[::1]";
  return hostname.includes(":") ? `[${hostname}]` : hostname;
}
