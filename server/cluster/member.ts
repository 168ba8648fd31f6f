/**
 * One process of several over one store (issue #35): it takes companies by lease
 * (leases.ts), runs them (their actors, timers and WhatsApp sessions), gives them up, and
 * says where each company is served, for the router that forwards requests (routing.ts).
 *
 * Every `PLACE_MS` (a round) the process: writes its node record (address and load), renews
 * its leases when a third of their length has passed, and takes free companies (no lease, or
 * one past its end) while it is the least loaded live process. Load is the tickets of the
 * companies a process holds plus `COMPANY_WEIGHT` per company; ties go to the name that sorts
 * first. So a process that dies has its companies spread over the others within a lease
 * length and a round or two, the least loaded first; a process that starts takes the free
 * ones, and moves are explicit (`move`: the platform owner's choice on /companies, or a
 * graceful stop) or made by the rebalancing rule: a process holding more than one company
 * whose load exceeds twice the least loaded process's (plus one company's weight) lets its
 * smallest company go to that process, at most once a minute.
 *
 * A company being taken is `starting` until its read models are warm, its timers armed and
 * its sessions resumed; one being let go is `stopping`. Requests for either are answered 503
 * with Retry-After (the browser retries by itself).
 *
 * Keys: `["cluster_node", name] → NodeRecord` (expiring: a record not renewed within three
 * rounds is gone, and so is the process as far as placement goes), `["lease_claim",
 * companyId] → node name` (a move in progress: only that process may take the company; it
 * expires after `CLAIM_MS`).
 */
import { companies, PLATFORM } from "../../actors/platform/collections.ts";
import type { ActorSystem } from "../../actors/_runtime/system.ts";
import { type Lease, Leases } from "./leases.ts";
import type { ClusterNode } from "../../domain/cluster.ts";
import { log } from "../../actors/_runtime/log.ts";

/** How often a process looks at the cluster, in ms. */
export const PLACE_MS = 1000;
/** Load a company adds besides its tickets (so empty companies spread too). */
const COMPANY_WEIGHT = 100;
/** How long a move's claim keeps other processes from taking the company. */
const CLAIM_MS = 30_000;
/** At most one rebalancing move per process this often. */
const REBALANCE_EVERY_MS = 60_000;

/** What a process publishes about itself (domain/cluster.ts ClusterNode). */
export type NodeRecord = ClusterNode;

const nodeKey = (name: string): Deno.KvKey => ["cluster_node", name];
const claimKey = (companyId: number): Deno.KvKey => ["lease_claim", companyId];

/** What running a company means to the host (server/cluster/company_runtime.ts). */
export interface CompanyRuntime {
  /** Arms its timers, warms its read models, resumes its sessions. */
  start(companyId: number): Promise<void>;
  /** Stops its sessions, drops its timers' alarms and its actors. */
  stop(companyId: number): Promise<void>;
  /** Its load: its tickets. */
  load(companyId: number): number;
  /** The live WhatsApp sessions of this process, `companyId:whatsappId`. */
  sessions(): string[];
}

/** Where a company is served, as this process sees it. */
export type Placement =
  | { kind: "here" }
  /** Being taken or let go by this process, or by nobody yet: answer 503, retry shortly. */
  | { kind: "busy" }
  | { kind: "elsewhere"; url: string; node: string };

/** See the module doc. */
export class ClusterMember {
  readonly leases: Leases;
  readonly #states = new Map<number, "starting" | "serving" | "stopping">();
  #timer: ReturnType<typeof setInterval> | undefined;
  #round: Promise<void> = Promise.resolve();
  #lastRenew = 0;
  #lastRebalance = 0;
  #stopped = false;
  /** The latest view of the leases (refreshed every round, and on a miss). */
  #view = new Map<number, Lease>();

  constructor(
    readonly kv: Deno.Kv,
    readonly node: { name: string; url: string },
    readonly runtime: CompanyRuntime,
    readonly listCompanies: () => Promise<number[]>,
    leaseMs: number,
    readonly now: () => number = Date.now,
  ) {
    this.leases = new Leases(kv, node, leaseMs, now);
    this.leases.onLost((companyId) => {
      log.warn(`Cluster: company ${companyId} was taken by another process; this one lets it go`);
      this.#let(companyId, false).catch((error) => log.error(`Cluster: stopping company ${companyId} failed`, { error }));
    });
  }

  /** Starts the rounds (see the module doc); the first one runs at once. */
  start(): Promise<void> {
    this.#timer = setInterval(() => this.#next(), PLACE_MS);
    this.#next();
    return this.#round;
  }

  /** Resolves once the round under way (if any) has ended. */
  settled(): Promise<void> {
    return this.#round;
  }

  /** Where company `companyId` is served (see Placement). */
  placement(companyId: number): Placement {
    const state = this.#states.get(companyId);
    if (state === "serving") return { kind: "here" };
    if (state) return { kind: "busy" };
    const lease = this.#view.get(companyId);
    if (!lease || lease.expiresAt <= this.now() || lease.node === this.node.name) return { kind: "busy" };
    return { kind: "elsewhere", url: lease.url, node: lease.node };
  }

  /** `placement` after reading the company's lease again (a request that found none). */
  async placementNow(companyId: number): Promise<Placement> {
    const lease = (await this.kv.get<Lease>(["lease", companyId])).value;
    if (lease) this.#view.set(companyId, lease);
    else this.#view.delete(companyId);
    return this.placement(companyId);
  }

  /** The live processes, by name. */
  async nodes(): Promise<NodeRecord[]> {
    const out: NodeRecord[] = [];
    for await (const entry of this.kv.list<NodeRecord>({ prefix: ["cluster_node"] })) out.push(entry.value);
    return out.sort((a, b) => a.name.localeCompare(b.name));
  }

  /** Every company's lease, as of the last round. */
  get leaseView(): ReadonlyMap<number, Lease> {
    return this.#view;
  }

  /**
   * Moves company `companyId` to process `toNode` (the platform owner's choice): a claim that
   * only that process may take it, and its owner lets it go at its next round.
   */
  async move(companyId: number, toNode: string): Promise<void> {
    await this.kv.set(claimKey(companyId), toNode, { expireIn: CLAIM_MS });
    if (this.leases.holds(companyId) && toNode !== this.node.name) await this.#let(companyId, true);
  }

  /**
   * Takes a company this process has just created (sign-up, a super user's new company), so
   * the handler that created it can write its first settings: a new company has no lease, so
   * its lease is free and this process its first owner.
   */
  async adopt(companyId: number): Promise<void> {
    if (this.#states.get(companyId) === "serving") return;
    if (!await this.#take(companyId)) {
      throw new Error(`Company ${companyId} was taken by another process as it was created`);
    }
  }

  /** A graceful stop: every company is let go at once, for the others to take. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#timer);
    await this.#round.catch(() => {});
    await Promise.all(this.leases.held.map((id) => this.#let(id, true)));
    await this.kv.delete(nodeKey(this.node.name)).catch(() => {});
  }

  #next(): void {
    this.#round = this.#round.then(() => this.#stopped ? undefined : this.#place()).catch((error) =>
      log.error("Cluster: a placement round failed", { error })
    );
  }

  async #place(): Promise<void> {
    const now = this.now();
    if (now - this.#lastRenew >= this.leases.leaseMs / 3) {
      await this.leases.renew();
      this.#lastRenew = now;
    }
    const held = this.leases.held;
    const load = held.reduce((sum, id) => sum + COMPANY_WEIGHT + this.runtime.load(id), 0);
    await this.kv.set(nodeKey(this.node.name), {
      name: this.node.name,
      url: this.node.url,
      load,
      companies: held,
      sessions: this.runtime.sessions(),
      at: now,
    } satisfies NodeRecord, { expireIn: PLACE_MS * 3 });
    this.#view = await this.leases.all();
    const nodes = (await this.nodes()).filter((n) => n.at > now - PLACE_MS * 3);
    const claims = new Map<number, string>();
    for await (const entry of this.kv.list<string>({ prefix: ["lease_claim"] })) claims.set(Number(entry.key[1]), entry.value);

    // A claim for another process: let the company go.
    for (const id of held) {
      const claim = claims.get(id);
      if (claim && claim !== this.node.name) await this.#let(id, true);
    }
    // Free companies, while this process is the least loaded (or claimed for it).
    let mine = load;
    for (const companyId of await this.listCompanies()) {
      if (this.#states.has(companyId)) continue;
      const lease = this.#view.get(companyId);
      if (lease && lease.expiresAt > now) continue;
      const claim = claims.get(companyId);
      if (claim && claim !== this.node.name) continue;
      if (!claim && !this.#leastLoaded(nodes, mine)) break;
      if (await this.#take(companyId)) mine += COMPANY_WEIGHT + this.runtime.load(companyId);
    }
    await this.#rebalance(nodes, mine, now);
  }

  /** Whether this process, at `mine`, is the least loaded of `nodes` (ties: the first name). */
  #leastLoaded(nodes: NodeRecord[], mine: number): boolean {
    for (const n of nodes) {
      if (n.name === this.node.name) continue;
      if (n.load < mine || (n.load === mine && n.name < this.node.name)) return false;
    }
    return true;
  }

  async #rebalance(nodes: NodeRecord[], mine: number, now: number): Promise<void> {
    if (now - this.#lastRebalance < REBALANCE_EVERY_MS || this.leases.held.length < 2) return;
    const others = nodes.filter((n) => n.name !== this.node.name);
    if (others.length === 0) return;
    const least = others.reduce((a, b) => (b.load < a.load ? b : a));
    if (mine <= 2 * least.load + COMPANY_WEIGHT) return;
    const smallest = this.leases.held.reduce((a, b) => (this.runtime.load(b) < this.runtime.load(a) ? b : a));
    this.#lastRebalance = now;
    log.info(`Cluster: moving company ${smallest} to ${least.name} (load ${mine} here, ${least.load} there)`);
    await this.move(smallest, least.name);
  }

  /** Takes and starts company `companyId`; false when another process got it first. */
  async #take(companyId: number): Promise<boolean> {
    if (!await this.leases.take(companyId)) return false;
    this.#states.set(companyId, "starting");
    try {
      await this.runtime.start(companyId);
      if (this.#states.get(companyId) === "starting") this.#states.set(companyId, "serving");
      await this.kv.atomic().check({ key: claimKey(companyId), versionstamp: null }).commit().then(async (r) => {
        if (!r.ok) await this.kv.delete(claimKey(companyId)); // the move's claim is spent
      });
      return true;
    } catch (error) {
      log.error(`Cluster: starting company ${companyId} failed; letting it go`, { error });
      await this.#let(companyId, true);
      return false;
    }
  }

  /** Stops company `companyId` here; `release` deletes the lease (a graceful hand-over). */
  async #let(companyId: number, release: boolean): Promise<void> {
    if (this.#states.get(companyId) === "stopping") return;
    this.#states.set(companyId, "stopping");
    try {
      await this.runtime.stop(companyId);
    } finally {
      if (release) await this.leases.release(companyId);
      else this.leases.lost(companyId);
      this.#states.delete(companyId);
    }
  }
}

/** The ids of every company, from the platform's collection (refreshed across processes). */
export async function allCompanyIds(system: ActorSystem): Promise<number[]> {
  return (await companies.in(system, PLATFORM).list()).map((c) => c.id);
}
