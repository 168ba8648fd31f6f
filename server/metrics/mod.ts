/**
 * The metrics one process exposes at `/metrics` in Prometheus' text format (issue #40), with
 * prom-client. Each server has its own registry (tests run many servers in one process), and
 * only our own metrics: prom-client's default ones read Node's event loop, meaningless here.
 * README.md "Operating" lists them, with a scrape configuration and alert rules.
 *
 * Cost on the hot paths (the lead measures it with bench/ingest.ts and bench/inbox.ts):
 * - inbound and outbound messages, send failures and retries: one increment of a plain field
 *   per message (server/channels/traffic.ts), read here at scrape time;
 * - WebSocket messages and events sent: one increment per send (realtime/connection.ts);
 * - commits: one `onCommit` call per atomic (never per message): two histogram observations
 *   and a counter increment;
 * - timers: one `onRing` call per timer that rings: one histogram observation;
 * - HTTP: per request, one clock read, one route lookup and one histogram observation
 *   through a cached child (http.ts);
 * - everything else (sessions by status, mailboxes, read models, companies held, sockets
 *   open, memory) is read only when scraped.
 *
 * Labels never carry a customer's number, a name or a message: channels are provider names,
 * routes are templates, statuses are the session machine's or HTTP's. No metric is labelled
 * per company: a process may hold thousands, and per-company series would grow with them.
 * Where one company matters (the largest read model), a `_largest` gauge gives its size
 * without naming it; the platform owner's page names the companies with dropped connections.
 */
import { Counter, Gauge, Histogram, Registry } from "prom-client";
import type { ActorSystem } from "../../actors/_runtime/system.ts";
import { readConnectionAlerts } from "../../actors/sessions/alerts.ts";
import { whatsapps } from "../../actors/whatsapps/collection.ts";
import { Provider, SESSION_STATUSES } from "../../domain/whatsapp.ts";
import type { Traffic } from "../channels/traffic.ts";
import type { Readiness } from "../readiness.ts";
import { HttpLatency } from "./http.ts";
import { readModelSizes } from "./read_models.ts";

/** What the metrics read; each is asked at scrape time. */
export interface MetricSources {
  system: ActorSystem;
  traffic: Traffic;
  /** Sockets open and what they were sent (realtime/hub.ts `stats`). */
  sockets: () => { sockets: number; opened: number; messagesSent: number; eventsSent: number };
  readiness: Readiness;
  /** The companies this process holds (deps.heldCompanies: all, for a process alone). */
  heldCompanies: () => Promise<readonly number[]>;
}

/** How many of the deepest mailboxes are reported. */
export const MAILBOX_RANKS = 5;

/** The metrics of one server; see the module doc. */
export class Metrics {
  readonly registry = new Registry();
  readonly http: HttpLatency;
  /** Drops told to admins, per provider (`droppedConnection`). */
  readonly #drops: Counter<"channel">;

  constructor(sources: MetricSources) {
    const registers = [this.registry];
    const { system, traffic } = sources;
    this.http = new HttpLatency(this.registry);

    const commitSeconds = new Histogram({
      name: "balcao_kv_commit_seconds",
      help: "Group committer: time KV took to commit one atomic",
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers,
    });
    const commitUnits = new Histogram({
      name: "balcao_kv_commit_units",
      help: "Group committer: actor write units batched into one atomic",
      buckets: [1, 2, 5, 10, 25, 50, 100, 250, 500, 1000],
      registers,
    });
    const mutations = new Counter({ name: "balcao_kv_mutations_total", help: "Group committer: mutations written", registers });
    system.committer.onCommit = (ms, written, units) => {
      commitSeconds.observe(ms / 1000);
      commitUnits.observe(units);
      mutations.inc(written);
    };
    const timerLag = new Histogram({
      name: "balcao_timer_lag_seconds",
      help: "Durable timers: how late each rang after its due time",
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15, 60, 300],
      registers,
    });
    system.alarms.onRing = (ms) => timerLag.observe(Math.max(0, ms) / 1000);

    this.#drops = new Counter({
      name: "balcao_whatsapp_drops_total",
      help: "WhatsApp connections that stayed disconnected past the grace period (admins told once per drop)",
      labelNames: ["channel"],
      registers,
    });
    for (const provider of Provider.options) this.#drops.labels(provider).inc(0);

    this.#trafficCounters(traffic);
    this.#scrapedGauges(sources);
  }

  /** Counts a drop the admins were told of (server/channels/drop_alerts.ts). */
  droppedConnection(provider: Provider): void {
    this.#drops.labels(provider).inc();
  }

  /** The scrape's body and content type. */
  async scrape(): Promise<{ body: string; contentType: string }> {
    return { body: await this.registry.metrics(), contentType: this.registry.contentType };
  }

  /** Message counters by channel, read from the channels' plain counts at scrape time. */
  #trafficCounters(traffic: Traffic): void {
    const counter = (name: string, help: string, field: keyof Traffic[Provider]) =>
      new Counter({
        name,
        help,
        labelNames: ["channel"],
        registers: [this.registry],
        collect() {
          this.reset();
          for (const provider of Provider.options) this.inc({ channel: provider }, traffic[provider][field]);
        },
      });
    counter("balcao_messages_inbound_total", "Messages the providers delivered, by channel", "inbound");
    counter("balcao_messages_outbound_total", "Messages the providers accepted, by channel", "outbound");
    counter("balcao_messages_outbound_failed_total", "Sends that failed for good, by channel", "failed");
    counter("balcao_messages_outbound_retries_total", "Send attempts after a failed one, by channel", "retries");
  }

  /** Gauges (and counters kept elsewhere) read when scraped. */
  #scrapedGauges(sources: MetricSources): void {
    const registers = [this.registry];
    const { system, readiness } = sources;
    const held = () => sources.heldCompanies();
    new Gauge({
      name: "balcao_whatsapp_sessions",
      help: "WhatsApp connections of the companies this process holds, by status and channel",
      labelNames: ["status", "channel"],
      registers,
      async collect() {
        const counts = new Map<string, number>();
        for (const companyId of await held()) {
          for (const w of await whatsapps.in(system, companyId).list()) {
            const key = `${w.status}\u0000${w.provider}`;
            counts.set(key, (counts.get(key) ?? 0) + 1);
          }
        }
        this.reset();
        for (const status of SESSION_STATUSES) {
          for (const channel of Provider.options) this.set({ status, channel }, counts.get(`${status}\u0000${channel}`) ?? 0);
        }
      },
    });
    new Gauge({
      name: "balcao_whatsapp_sessions_dropped",
      help: "Connections of the held companies down past the grace period now (their admins were told)",
      registers,
      async collect() {
        const companies = new Set(await held());
        const open = (await readConnectionAlerts(system.kv)).filter((a) => a.restoredAt === null && companies.has(a.companyId));
        this.set(open.length);
      },
    });
    new Gauge({
      name: "balcao_actor_mailbox_depth",
      help: `The ${MAILBOX_RANKS} deepest actor mailboxes (messages waiting), by rank and actor kind`,
      labelNames: ["rank", "kind"],
      registers,
      collect() {
        this.reset();
        const deepest = system.deepestMailboxes(MAILBOX_RANKS);
        for (let rank = 0; rank < MAILBOX_RANKS; rank++) {
          const at = deepest[rank];
          this.set({ rank: String(rank + 1), kind: at?.kind ?? "none" }, at?.depth ?? 0);
        }
      },
    });
    new Gauge({ name: "balcao_actors_live", help: "Actors in memory", registers, collect() { this.set(system.liveActors); } });
    new Gauge({
      name: "balcao_actor_messages_inflight",
      help: "Actor messages accepted and not yet settled (queued, running or waiting for their commit)",
      registers,
      collect() {
        this.set(system.inflight);
      },
    });
    new Gauge({ name: "balcao_timers_armed", help: "Durable timers the alarm clock holds", registers, collect() { this.set(system.alarms.size); } });
    this.#socketMetrics(sources);
    new Gauge({
      name: "balcao_read_model_entries",
      help: "In-memory read models: entries over every held company (tickets, contacts, message-search pairs, provider ids)",
      labelNames: ["model"],
      registers,
      async collect() {
        this.reset();
        for (const [model, size] of Object.entries(readModelSizes(system, await held()))) this.set({ model }, size.total);
      },
    });
    new Gauge({
      name: "balcao_read_model_largest",
      help: "In-memory read models kept per company: entries of the largest company (unnamed)",
      labelNames: ["model"],
      registers,
      async collect() {
        this.reset();
        for (const [model, size] of Object.entries(readModelSizes(system, await held()))) {
          if (size.largest !== undefined) this.set({ model }, size.largest);
        }
      },
    });
    new Gauge({
      name: "balcao_companies_held",
      help: "Companies this process holds (all of them for a process alone; its leases in a cluster)",
      registers,
      async collect() {
        this.set((await held()).length);
      },
    });
    new Gauge({ name: "balcao_ready", help: "1 once this process serves traffic (GET /ready answers 200)", registers, collect() { this.set(readiness.ready ? 1 : 0); } });
    new Gauge({
      name: "balcao_process_start_time_seconds",
      help: "When this process began to start, in seconds since the epoch",
      registers,
      collect() {
        this.set(readiness.startedAt / 1000);
      },
    });
    new Gauge({
      name: "balcao_process_memory_bytes",
      help: "Process memory (Deno.memoryUsage): rss, heap_total, heap_used, external",
      labelNames: ["kind"],
      registers,
      collect() {
        const m = Deno.memoryUsage();
        this.set({ kind: "rss" }, m.rss);
        this.set({ kind: "heap_total" }, m.heapTotal);
        this.set({ kind: "heap_used" }, m.heapUsed);
        this.set({ kind: "external" }, m.external);
      },
    });
  }

  /** Sockets open (gauge) and what they were sent (counters), from the hub's counts. */
  #socketMetrics(sources: MetricSources): void {
    const registers = [this.registry];
    new Gauge({ name: "balcao_websocket_sockets", help: "WebSocket sockets open", registers, collect() { this.set(sources.sockets().sockets); } });
    const total = (name: string, help: string, read: (s: ReturnType<MetricSources["sockets"]>) => number) =>
      new Counter({
        name,
        help,
        registers,
        collect() {
          this.reset();
          this.inc(read(sources.sockets()));
        },
      });
    total("balcao_websocket_sockets_opened_total", "WebSocket sockets opened", (s) => s.opened);
    total("balcao_websocket_messages_sent_total", "WebSocket messages sent (an event, a batch of events or a control frame)", (s) => s.messagesSent);
    total("balcao_websocket_events_sent_total", "Event frames sent to sockets (one per event, batched or not)", (s) => s.eventsSent);
  }
}
