/**
 * Company leases (issue #35): which process runs each company, kept in the shared store.
 *
 * - `["lease", companyId] → Lease`: the owner (node name and the address other processes
 *   forward to), the term, and when it runs out. The owner renews it every third of its
 *   length; a lease past `expiresAt` is free for any process to take.
 * - `["lease_term", companyId] → term`: written only when the owner changes. Every commit of
 *   the company's actors checks its versionstamp (the fence, actors/_runtime/committer.ts), so
 *   a process that lost the company (paused past its lease by the collector or SIGSTOP, cut
 *   off, its clock wrong) changes nothing more: its next commit is refused, and it drops the
 *   company. Renewals leave it alone, so a renewal never fails a commit in flight.
 *
 * Taking is one atomic that checks both keys as read (free or expired) and writes the new
 * lease and the next term, so two processes racing for a company cannot both win. Clocks:
 * expiry compares the taker's clock with the owner's; the fence makes a skew cost only time,
 * never a double owner.
 */
import type { Fence, FenceCheck } from "../../actors/_runtime/committer.ts";

/** A company's lease as stored. */
export interface Lease {
  /** The owner's node name. */
  node: string;
  /** Where other processes forward the company's requests (`http://host:port`). */
  url: string;
  term: number;
  expiresAt: number;
}

/** The lease key of a company. */
export const leaseKey = (companyId: number): Deno.KvKey => ["lease", companyId];
/** The term key of a company (the fence). */
export const termKey = (companyId: number): Deno.KvKey => ["lease_term", companyId];
/** The prefix of every lease. */
export const LEASE_PREFIX: Deno.KvKey = ["lease"];

/** What this process holds of one company. */
interface Held {
  term: number;
  /** The term key and its versionstamp: the fence, made once (every ask and commit reads it). */
  fence: FenceCheck;
  /** The lease key's versionstamp as last written by this process. */
  versionstamp: string;
  expiresAt: number;
}

/** This process's leases; the committer's fence (see the module doc). */
export class Leases implements Fence {
  readonly #held = new Map<number, Held>();
  #onLost: (companyId: number) => void = () => {};

  constructor(
    readonly kv: Deno.Kv,
    readonly node: { name: string; url: string },
    readonly leaseMs: number,
    readonly now: () => number = Date.now,
  ) {}

  /** Called (once per loss) when a commit or a renewal finds that another process took a company. */
  onLost(fn: (companyId: number) => void): void {
    this.#onLost = fn;
  }

  /** The companies this process holds. */
  get held(): number[] {
    return [...this.#held.keys()];
  }

  /** Whether this process holds company `companyId`. */
  holds(companyId: number): boolean {
    return this.#held.has(companyId);
  }

  /** The fence of a held company (committer.ts). */
  of(companyId: number): FenceCheck | undefined {
    return this.#held.get(companyId)?.fence;
  }

  /** A commit found the company's term moved (committer.ts): it is no longer this process's. */
  lost(companyId: number): void {
    if (!this.#held.delete(companyId)) return;
    this.#onLost(companyId);
  }

  /** Every lease in the store, by company. */
  async all(): Promise<Map<number, Lease>> {
    const leases = new Map<number, Lease>();
    for await (const entry of this.kv.list<Lease>({ prefix: LEASE_PREFIX })) {
      leases.set(Number(entry.key[1]), entry.value);
    }
    return leases;
  }

  /**
   * Takes company `companyId` if its lease is free or expired (or already this process's);
   * true when this process now holds it.
   */
  async take(companyId: number): Promise<boolean> {
    if (this.#held.has(companyId)) return true;
    const [lease, term] = await this.kv.getMany<[Lease, number]>([leaseKey(companyId), termKey(companyId)]);
    const now = this.now();
    if (lease.value && lease.value.expiresAt > now && lease.value.node !== this.node.name) return false;
    const next = (term.value ?? lease.value?.term ?? 0) + 1;
    const value: Lease = { node: this.node.name, url: this.node.url, term: next, expiresAt: now + this.leaseMs };
    const result = await this.kv.atomic()
      .check(lease)
      .check(term)
      .set(leaseKey(companyId), value)
      .set(termKey(companyId), next)
      .commit();
    if (!result.ok) return false;
    const fence = { key: termKey(companyId), versionstamp: result.versionstamp };
    this.#held.set(companyId, { term: next, fence, versionstamp: result.versionstamp, expiresAt: value.expiresAt });
    return true;
  }

  /**
   * Renews every held lease (batches of 10 checks, a KV Connect server's limit per atomic).
   * A lease another process took, or that was deleted, is lost.
   */
  async renew(): Promise<void> {
    const companies = this.held;
    for (let i = 0; i < companies.length; i += 10) {
      const slice = companies.slice(i, i + 10).filter((id) => this.#held.has(id));
      const op = this.kv.atomic();
      const expiresAt = this.now() + this.leaseMs;
      for (const id of slice) {
        const held = this.#held.get(id)!;
        op.check({ key: leaseKey(id), versionstamp: held.versionstamp })
          .set(leaseKey(id), { node: this.node.name, url: this.node.url, term: held.term, expiresAt } satisfies Lease);
      }
      const result = await op.commit();
      if (result.ok) {
        for (const id of slice) {
          const held = this.#held.get(id);
          if (held) Object.assign(held, { versionstamp: result.versionstamp, expiresAt });
        }
        continue;
      }
      // Some lease of the slice moved: renew the others one by one, drop the moved ones.
      for (const id of slice) await this.#renewOne(id);
    }
  }

  async #renewOne(companyId: number): Promise<void> {
    const held = this.#held.get(companyId);
    if (!held) return;
    const expiresAt = this.now() + this.leaseMs;
    const result = await this.kv.atomic()
      .check({ key: leaseKey(companyId), versionstamp: held.versionstamp })
      .set(leaseKey(companyId), { node: this.node.name, url: this.node.url, term: held.term, expiresAt } satisfies Lease)
      .commit();
    if (result.ok) Object.assign(held, { versionstamp: result.versionstamp, expiresAt });
    else this.lost(companyId);
  }

  /**
   * Lets company `companyId` go (a graceful stop, a move): its lease is deleted, so another
   * process may take it at once. The term stays, for the next owner to advance.
   */
  async release(companyId: number): Promise<void> {
    const held = this.#held.get(companyId);
    if (!held) return;
    this.#held.delete(companyId);
    await this.kv.atomic().check({ key: leaseKey(companyId), versionstamp: held.versionstamp })
      .delete(leaseKey(companyId)).commit();
  }

  /** Whether a held lease's renewal is overdue by this process's clock (it may be lost already). */
  stale(companyId: number): boolean {
    const held = this.#held.get(companyId);
    return !held || held.expiresAt <= this.now();
  }
}
