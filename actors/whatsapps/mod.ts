/** Connections of a company: what other areas call (reads are in memory, no mailbox). */
import type { ActorSystem } from "../_runtime/system.ts";
import { notFound } from "../../domain/errors.ts";
import type { Whatsapp } from "../../domain/whatsapp.ts";
import { whatsapps } from "./collection.ts";

export { whatsapps } from "./collection.ts";

/** The connection, or undefined when it does not exist in the company. */
export async function getWhatsapp(system: ActorSystem, companyId: number, id: number): Promise<Whatsapp | undefined> {
  return await whatsapps.in(system, companyId).get(id);
}

/** The company's default connection; 404 `ERR_NO_DEF_WAPP_FOUND` when it has none. */
export async function defaultWhatsapp(system: ActorSystem, companyId: number): Promise<Whatsapp> {
  for (const w of (await whatsapps.in(system, companyId).records()).values()) {
    if (w.isDefault) return w;
  }
  throw notFound("ERR_NO_DEF_WAPP_FOUND", `Company ${companyId} has no default connection`);
}
