/**
 * What the connections of one server moved, per provider (issue #40's message counters): plain
 * numbers that the live sessions add to on their paths, read by a metrics scrape
 * (server/metrics). One object per provider, made once: counting a message is one increment
 * of a field the session already holds, with no lookup, label or allocation.
 */
import { Provider } from "../../domain/whatsapp.ts";

/** The counts of one provider since the server started. */
export interface ChannelTraffic {
  /** Messages the provider delivered to the inbound path (duplicates and ignored ones too). */
  inbound: number;
  /** Messages the provider accepted: the inbox's sends and the campaigns'. */
  outbound: number;
  /**
   * Sends that failed for good: an inbox send after its last try (or refused outright, or with
   * no live session), a campaign send each time the provider refuses it (its engine retries).
   */
  failed: number;
  /** Send attempts after a failed one (the inbox's retries). */
  retries: number;
}

/** The counts of every provider. */
export type Traffic = Readonly<Record<Provider, ChannelTraffic>>;

/** Zeroed counts for every provider. */
export function newTraffic(): Traffic {
  return Object.fromEntries(Provider.options.map((p) => [p, { inbound: 0, outbound: 0, failed: 0, retries: 0 }])) as Traffic;
}
