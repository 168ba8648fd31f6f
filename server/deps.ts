/** What every handler can reach: built once in `server/start.ts`, passed down, never global. */
import type { ActorSystem } from "../actors/_runtime/system.ts";
import type { EventBus } from "../actors/_runtime/bus.ts";
import type { Config } from "./config.ts";
import type { FailureLog } from "./auth/throttle.ts";
import type { AccessTokenVerifier } from "./auth/access_cache.ts";
import type { Principal } from "../domain/permissions.ts";
import type { OutboundPort } from "../domain/channel.ts";
import type { Hub } from "./realtime/hub.ts";
import type { Channels } from "./channels/registry.ts";
import type { ClusterMember } from "./cluster/member.ts";
import type { Logger } from "../actors/_runtime/log.ts";
import type { Metrics } from "./metrics/mod.ts";
import type { Readiness } from "./readiness.ts";

export interface AppDeps {
  config: Config;
  kv: Deno.Kv;
  system: ActorSystem;
  bus: EventBus;
  /** Token signing secret. */
  secret: string;
  /** Verifies access tokens, remembering verified ones until they expire. */
  tokens: AccessTokenVerifier;
  /** Login and sign-up failures, in the store (auth/throttle_kv.ts). */
  throttle: FailureLog;
  /** Hands outgoing messages to the channels; replaced by the channels area at start-up. */
  outbound: OutboundPort;
  /** The WebSocket hub of live events (server/realtime). */
  hub: Hub;
  /** Live WhatsApp sessions of this server (adapters are I/O handles, never persisted). */
  channels: Channels;
  /** This process's membership of a cluster (issue #35); unset for a process alone. */
  cluster?: ClusterMember;
  /** This server's metrics (server/metrics): the `/metrics` scrape and the HTTP histogram. */
  metrics: Metrics;
  /** Whether this server has finished starting (server/readiness.ts, `GET /ready`). */
  readiness: Readiness;
  /** This server's logger (JSON lines; request logs are its children, http/request_log.ts). */
  log: Logger;
  /**
   * The companies this process holds: every company of the store for a process alone. The
   * cluster's leases (issue #35) replace it; metrics and readiness read it through here.
   */
  heldCompanies: () => Promise<readonly number[]>;
}

/** Hono environment of the app: the deps and, after `requireAuth`, the principal. */
export type AppEnv = {
  Variables: {
    deps: AppDeps;
    principal: Principal;
    /** Set when the token is a billing-only token of an expired company. */
    billingOnly: boolean;
    /** The request's id (taken from X-Request-Id or made; echoed in the response). */
    requestId: string;
    /** The request's logger: lines carry its id, route and company (http/request_log.ts). */
    log: Logger;
    /** The route template a page answered (server/pages/mod.ts), for metrics and logs. */
    route: string;
  };
};
