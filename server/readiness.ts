/**
 * Readiness (issue #40), beside liveness. `/health` answers as soon as the process listens
 * (the process is alive: do not restart it); `/ready` answers 200 only once the start is done
 * (send it traffic), and 503 before that and while it shuts down, so a load balancer keeps
 * requests on the other processes during a restart.
 *
 * The server listens before it warms up, so the probes answer during a long start (a 10×
 * store takes ~9 s, bench/cold_start.ts); every other request meanwhile gets 503
 * `ERR_STARTING` with `Retry-After`, rather than an inbox built from half-loaded read models.
 *
 * Ready means (server/start.ts): the demo or owner seeded, the read models warm
 * (server/boot.ts warmUp: the platform collections, every held company's ticket desk and
 * contacts with their name indexes, the invoice timers), the realtime hub started, and the
 * held companies' WhatsApp sessions resumed. The message-search and provider indexes are not
 * waited for: they build in the background after that, a search meanwhile answers from what is
 * indexed with `partial: true`, and a provider lookup waits only for its own company's scan.
 */
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./deps.ts";

/** Where a start (or a stop) is. */
export type Phase = "starting" | "warming" | "resuming" | "ready" | "stopping";

/** Paths that answer in every phase: the probes and the scrape. */
const ALWAYS = new Set(["/health", "/ready", "/metrics"]);

/** One process's readiness; see the module doc. */
export class Readiness {
  #phase: Phase = "starting";
  /** When the process began to start and when it became ready (ms since the epoch). */
  readonly startedAt = Date.now();
  readyAt?: number;

  get phase(): Phase {
    return this.#phase;
  }

  /** Whether this process serves traffic now. */
  get ready(): boolean {
    return this.#phase === "ready";
  }

  /** Moves the start on (server/start.ts). */
  enter(phase: Phase): void {
    this.#phase = phase;
    if (phase === "ready") this.readyAt = Date.now();
  }
}

/** Retry-After of a request refused while starting: a start takes seconds. */
const RETRY_AFTER_S = 2;

/** Refuses every request but the probes until the process is ready (see the module doc). */
export function readinessGate(): MiddlewareHandler<AppEnv> {
  return async function readinessGateMiddleware(c, next) {
    const readiness = c.get("deps").readiness;
    if (readiness.ready || ALWAYS.has(c.req.path)) return await next();
    const starting = readiness.phase !== "stopping";
    return c.json({
      error: "ERR_STARTING",
      message: starting ? "The server is starting; try again shortly" : "The server is shutting down; try again shortly",
    }, 503, { "retry-after": String(RETRY_AFTER_S) });
  };
}
