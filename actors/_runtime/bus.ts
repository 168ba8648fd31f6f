/**
 * The in-process event bus between actors and the edges (realtime hub, webhooks, tests).
 * Actors emit events; the runtime publishes them only after the writes that caused them are
 * durable, so no subscriber ever hears of something a crash could undo.
 */
import type { BusEvent } from "../../domain/events.ts";
import { log } from "./log.ts";

export type BusListener = (event: BusEvent) => void;

/** Synchronous fan-out to subscribers; a throwing subscriber does not stop the others. */
export class EventBus {
  #listeners = new Set<BusListener>();

  /** Registers a listener; returns the function that removes it. */
  subscribe(listener: BusListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  publish(event: BusEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch (error) {
        log.error("Event listener failed", { channel: event.channel, error });
      }
    }
  }
}
