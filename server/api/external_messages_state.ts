/**
 * What the external messages API keeps in memory per server (one per `AppDeps`): which
 * connection a token opens, and each token's rate bucket (the numbers WhatsApp already
 * confirmed are server/usecases/whatsapp_numbers.ts). Both are caches or limits, never
 * business state: a restart loses nothing a client was told about (the rate limit starts full
 * again).
 *
 * - Tokens: the connections of every company indexed by token, built on first use and kept
 *   current by the connections' own events (`company-{id}-whatsapp`, published after the
 *   write is durable and before the writer's reply): a changed, cleared or deleted token stops
 *   working at once. A hit is checked against the record itself.
 * - Rate: an in-memory token bucket per connection token (domain takeToken). Per process: a
 *   deployment of several servers grants each its own allowance (DESIGN §10).
 */
import { companies, PLATFORM } from "../../actors/platform/collections.ts";
import { whatsapps } from "../../actors/whatsapps/collection.ts";
import { type Bucket, DEFAULT_RATE, type RateLimit, takeToken } from "../../domain/external_message.ts";
import type { Whatsapp } from "../../domain/whatsapp.ts";
import type { AppDeps } from "../deps.ts";
import { connectionDirectory } from "../cluster/directory.ts";

/** Connections by token, refreshed per company when its connections change. */
class ConnectionTokens {
  #deps: AppDeps;
  #byToken = new Map<string, { companyId: number; whatsappId: number }>();
  #byCompany = new Map<number, string[]>();
  #dirty = new Set<number>();
  #loaded?: Promise<void>;

  constructor(deps: AppDeps) {
    this.#deps = deps;
    deps.bus.subscribe((event) => {
      if (event.companyId !== null && event.channel.endsWith("-whatsapp") && event.channel === `company-${event.companyId}-whatsapp`) {
        this.#dirty.add(event.companyId);
      }
    });
  }

  /**
   * The connection whose token is `token`; undefined for an unknown or empty token. In a
   * process of several (issue #35) the store's records say which company (the router forwarded
   * the request to its owner: server/cluster/directory.ts); the company's own collection, run
   * here, confirms it.
   */
  async find(token: string): Promise<Whatsapp | undefined> {
    if (!token) return undefined;
    if (this.#deps.cluster) {
      const listed = await connectionDirectory(this.#deps).withToken(token);
      const record = listed && await whatsapps.in(this.#deps.system, listed.companyId).get(listed.id);
      return record && record.token === token ? record : undefined;
    }
    this.#loaded ??= this.#loadAll();
    await this.#loaded;
    for (const companyId of [...this.#dirty]) {
      this.#dirty.delete(companyId);
      await this.#refresh(companyId);
    }
    const hit = this.#byToken.get(token);
    if (!hit) return undefined;
    const record = await whatsapps.in(this.#deps.system, hit.companyId).get(hit.whatsappId);
    return record && record.token === token ? record : undefined;
  }

  async #loadAll(): Promise<void> {
    const all = await companies.in(this.#deps.system, PLATFORM).list();
    await Promise.all(all.map((company) => this.#refresh(company.id)));
  }

  async #refresh(companyId: number): Promise<void> {
    for (const token of this.#byCompany.get(companyId) ?? []) this.#byToken.delete(token);
    const tokens: string[] = [];
    for (const w of (await whatsapps.in(this.#deps.system, companyId).records()).values()) {
      if (!w.token) continue;
      tokens.push(w.token);
      this.#byToken.set(w.token, { companyId, whatsappId: w.id });
    }
    this.#byCompany.set(companyId, tokens);
  }
}

/** Buckets beyond this many are swept of the full (idle) ones. */
const MAX_BUCKETS = 10_000;

/** The per-token rate limit. */
class RateLimiter {
  #buckets = new Map<string, Bucket>();
  limit: RateLimit;

  constructor(limit: RateLimit) {
    this.limit = limit;
  }

  /** Takes one request of `token` at `now`; see takeToken. */
  take(token: string, now: number): { allowed: boolean; retryAfter: number } {
    const step = takeToken(this.#buckets.get(token), now, this.limit);
    this.#buckets.set(token, step.bucket);
    if (this.#buckets.size > MAX_BUCKETS) this.#sweep(now);
    return step;
  }

  #sweep(now: number): void {
    for (const [token, bucket] of this.#buckets) {
      if (bucket.tokens + ((now - bucket.at) / 1000) * this.limit.perSecond >= this.limit.burst) {
        this.#buckets.delete(token);
      }
    }
  }
}

/** The API's in-memory state of one server. */
export interface ExternalApiState {
  tokens: ConnectionTokens;
  rate: RateLimiter;
}

const states = new WeakMap<AppDeps, ExternalApiState>();

/** The rate of the environment (BALCAO_API_RATE per second, BALCAO_API_BURST), else the default. */
function envRate(): RateLimit {
  const read = (name: string) => {
    try {
      return Number(Deno.env.get(name) ?? NaN);
    } catch {
      return NaN;
    }
  };
  const perSecond = read("BALCAO_API_RATE");
  const burst = read("BALCAO_API_BURST");
  return {
    perSecond: perSecond > 0 ? perSecond : DEFAULT_RATE.perSecond,
    burst: burst > 0 ? burst : perSecond > 0 ? perSecond * 2 : DEFAULT_RATE.burst,
  };
}

/** The state of `deps`' server (created on first use). */
export function externalApiState(deps: AppDeps): ExternalApiState {
  let state = states.get(deps);
  if (!state) {
    state = { tokens: new ConnectionTokens(deps), rate: new RateLimiter(envRate()) };
    states.set(deps, state);
  }
  return state;
}

/** Changes the per-token rate of a running server (tests, benchmarks). */
export function setExternalApiRate(deps: AppDeps, limit: RateLimit): void {
  externalApiState(deps).rate.limit = limit;
}
