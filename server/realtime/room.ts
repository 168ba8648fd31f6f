/**
 * One company's room: its sequence counter, its backlog, the sockets of its users grouped
 * by user (so the ticket rule runs once per user, not per tab), and the settings that rule
 * reads. The hub feeds it events in bus order; delivery is synchronous, so every socket gets
 * its frames in seq order and a replay never interleaves with live frames.
 */
import type { BusEvent } from "../../domain/events.ts";
import type { Principal } from "../../domain/permissions.ts";
import { SETTING_DEFAULTS } from "../../domain/settings.ts";
import type { VisibilitySettings } from "../../domain/visibility.ts";
import { TicketAudience } from "./audience.ts";
import { Backlog, type BacklogEntry } from "./backlog.ts";
import type { Connection } from "./connection.ts";
import { allowed, wanted } from "./routing.ts";
import { log } from "../../actors/_runtime/log.ts";

/** The sockets of one user and what the user may see. */
export interface Member {
  principal: Principal;
  /** `updatedAt` of the user record `principal` came from; older copies are ignored. */
  updatedAt: number;
  conns: Set<Connection>;
}

/** The result of a resume request. */
export type ReplayResult = { kind: "resumed"; count: number } | { kind: "resync" };

/** The live state of one company in the hub. */
export class Room {
  /** The seq of the last event; the next one gets `seq + 1`. */
  seq: number;
  readonly backlog: Backlog;
  readonly members = new Map<number, Member>();
  settings: VisibilitySettings & Record<string, string> = { ...SETTING_DEFAULTS };
  /** Settles once the stored settings are loaded (with later events applied over them). */
  readonly ready: Promise<void>;
  #patches: Map<string, string> | null = new Map();
  readonly #audience = new TicketAudience();

  constructor(
    readonly companyId: number,
    baseSeq: number,
    backlogMax: number,
    loadSettings: () => Promise<Record<string, string>>,
  ) {
    this.seq = baseSeq;
    this.backlog = new Backlog(backlogMax);
    this.ready = loadSettings().then(
      (stored) => this.#settle(stored),
      (error) => {
        log.error(`Settings of company ${companyId} not loaded; using defaults`, { error });
        this.#settle({});
      },
    );
  }

  /** Applies a `company-{id}-settings` change (a deleted key falls back to its default). */
  applySetting(key: string, value: string | undefined): void {
    const next = value ?? SETTING_DEFAULTS[key] ?? "";
    if (this.#patches) this.#patches.set(key, next);
    this.settings[key] = next;
  }

  /** Numbers `event`, keeps it in the backlog and sends it to every socket that should get it. */
  publish(event: BusEvent, now: number): BacklogEntry {
    const entry: BacklogEntry = { seq: ++this.seq, at: now, event };
    this.backlog.push(entry);
    const scope = event.scope;
    if (scope.kind === "users") {
      for (const userId of scope.userIds) {
        const member = this.members.get(userId);
        if (member) this.#deliver(member, entry);
      }
      return entry;
    }
    const candidates = scope.kind === "ticket"
      ? this.#audience.candidates(scope, this.settings, this.members)
      : this.members.values();
    for (const member of candidates) {
      if (allowed(member.principal, scope, this.settings)) this.#deliver(member, entry);
    }
    return entry;
  }

  /** Adds a live socket of `principal`'s user. */
  add(conn: Connection, principal: Principal, updatedAt: number): Member {
    let member = this.members.get(principal.id);
    if (!member) {
      member = { principal, updatedAt, conns: new Set() };
      this.members.set(principal.id, member);
      this.#audience.add(member);
    } else {
      this.updatePrincipal(principal, updatedAt);
    }
    member.conns.add(conn);
    conn.principal = member.principal;
    conn.startSeq = this.seq;
    return member;
  }

  /** Removes a socket; forgets the user when it was its last. */
  remove(conn: Connection): void {
    const id = conn.principal?.id;
    const member = id === undefined ? undefined : this.members.get(id);
    if (!member) return;
    member.conns.delete(conn);
    if (member.conns.size === 0) {
      this.members.delete(member.principal.id);
      this.#audience.remove(member);
    }
  }

  /** Refreshes a user's profile and queues from a record at least as new as the known one. */
  updatePrincipal(principal: Principal, updatedAt: number): void {
    const member = this.members.get(principal.id);
    if (!member || updatedAt < member.updatedAt) return;
    this.#audience.remove(member);
    member.principal = principal;
    this.#audience.add(member);
    member.updatedAt = updatedAt;
    for (const conn of member.conns) conn.principal = principal;
  }

  /**
   * Replays to `conn` what it may see after `lastSeq` up to the moment it went live, or
   * answers resync when the backlog no longer reaches back that far.
   */
  replay(conn: Connection, lastSeq: number): ReplayResult {
    const oldest = this.backlog.oldestSeq() ?? this.seq + 1;
    if (lastSeq > this.seq || lastSeq < oldest - 1) return { kind: "resync" };
    const member = conn.principal && this.members.get(conn.principal.id);
    if (!member) return { kind: "resync" };
    let count = 0;
    for (const entry of this.backlog.range(lastSeq, conn.startSeq)) {
      const scope = entry.event.scope;
      if (!allowed(member.principal, scope, this.settings)) continue;
      // A billing-only socket's limit holds in replays too (the other interests do not).
      if (conn.interest.paymentsOnly && !wanted(conn.interest, entry.event)) continue;
      conn.sendEntry(entry);
      count++;
    }
    return { kind: "resumed", count };
  }

  #deliver(member: Member, entry: BacklogEntry): void {
    for (const conn of member.conns) {
      if (wanted(conn.interest, entry.event)) conn.sendEntry(entry);
    }
  }

  #settle(stored: Record<string, string>): void {
    const patches = this.#patches ?? new Map();
    this.#patches = null;
    this.settings = { ...SETTING_DEFAULTS, ...stored, ...Object.fromEntries(patches) };
  }
}
