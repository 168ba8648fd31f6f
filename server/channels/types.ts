/** What the channel registry hands an adapter factory, and the factory's shape. */
import type { AdapterEvent, ChannelAdapter } from "../../domain/channel.ts";
import type { Provider, Whatsapp } from "../../domain/whatsapp.ts";

/** The connection an adapter serves and where it reports. */
export interface AdapterContext {
  companyId: number;
  whatsappId: number;
  /** The store, for adapters that keep auth state (Baileys creds, simulator pairing). */
  kv: Deno.Kv;
  /** The connection record when the adapter was built. */
  record: Whatsapp;
  /** Reports an event to the session; never throws. */
  emit(event: AdapterEvent): void;
}

/** Builds the adapter of one connection. */
export type AdapterFactory = (ctx: AdapterContext) => ChannelAdapter;

/** One factory per provider; providers without one cannot be started. */
export type AdapterFactories = Partial<Record<Provider, AdapterFactory>>;

/** Digits only: the normalised form of a phone number or group id. */
export function digits(value: string): string {
  return value.replace(/\D/g, "");
}
