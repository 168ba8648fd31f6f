/**
 * HTTP request latency by method, route template and status (issue #40). The route is the
 * template the request matched (`/tickets/:ticketId`, a page's `/chats/:id?`), never the raw
 * URL, so a series never names a customer, a ticket or a search term, and the number of
 * series is bounded by the routes the app declares. Each (route, method, status) resolves to
 * prom-client's child once; later requests find it in nested maps keyed by the strings they
 * already hold, so an observation builds no label object.
 */
import { Histogram, type Registry } from "prom-client";

/** Seconds: from a few milliseconds (a cached list) to a slow export. */
const BUCKETS = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The label of a request no route answered (404, or a refusal before routing). */
export const UNMATCHED_ROUTE = "unmatched";

type Child = ReturnType<Histogram<"method" | "route" | "status">["labels"]>;

/** The latency histogram and its children; see the module doc. */
export class HttpLatency {
  readonly #histogram: Histogram<"method" | "route" | "status">;
  /** route → method → status → child. */
  readonly #children = new Map<string, Map<string, Map<number, Child>>>();

  constructor(registry: Registry) {
    this.#histogram = new Histogram({
      name: "balcao_http_request_duration_seconds",
      help: "HTTP requests by method, route template and status: time until the response was ready",
      labelNames: ["method", "route", "status"],
      buckets: BUCKETS,
      registers: [registry],
    });
  }

  /** Records one request. `route` must be a template (see the module doc). */
  observe(method: string, route: string, status: number, seconds: number): void {
    let byMethod = this.#children.get(route);
    if (!byMethod) this.#children.set(route, byMethod = new Map());
    let byStatus = byMethod.get(method);
    if (!byStatus) byMethod.set(method, byStatus = new Map());
    let child = byStatus.get(status);
    if (!child) byStatus.set(status, child = this.#histogram.labels(method, route, String(status)));
    child.observe(seconds);
  }
}

/** Methods kept as labels; anything else (a scanner's made-up verb) is counted as OTHER. */
const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** The method label of a request: one of a fixed set, so a client cannot add series. */
export function methodLabel(method: string): string {
  return METHODS.has(method) ? method : "OTHER";
}
