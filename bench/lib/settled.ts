/**
 * Waits for the work a server starts in the background after it listens: every company's
 * message-search index (actors/messages/search_index.ts builds them in slices that take up to
 * two thirds of the event loop for ~10–60 s at 1M messages). A benchmark of another call that
 * measures during that build measures the build: bench/reports.ts's first figures were. And
 * a large company's contact name index (actors/contacts/naming.ts, ~3–4 s at 500,000 contacts).
 */
import { companies, PLATFORM } from "../../actors/platform/collections.ts";
import { searchTicketIds } from "../../actors/messages/mod.ts";
import { pageContacts } from "../../actors/contacts/mod.ts";
import type { ActorSystem } from "../../actors/_runtime/system.ts";

/** Resolves when every company's message and contact name indexes are built; returns the seconds waited. */
export async function backgroundBuilt(system: ActorSystem): Promise<number> {
  const started = performance.now();
  for (const { id } of await companies.in(system, PLATFORM).list()) {
    await searchTicketIds(system, id, "settled", Infinity);
    // A page of the contact list waits for the name index (contacts/naming.ts).
    await pageContacts(system, id, { offset: 0, limit: 1 });
  }
  return (performance.now() - started) / 1000;
}

/** `uptime`'s load averages (1, 5, 15 minutes): figures on a shared machine need them beside. */
export async function loadAverage(): Promise<string> {
  const text = await Deno.readTextFile("/proc/loadavg").catch(() => "? ? ?");
  return text.split(" ").slice(0, 3).join(", ");
}
