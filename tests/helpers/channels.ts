/** Helpers for channel tests: the demo connection, waiting for bus events, polling a condition. */
import type { BusEvent } from "../../domain/events.ts";
import type { Client, TestServer } from "./server.ts";

/** The demo company's default connection ("WhatsApp Demo", simulator, paired). */
export async function demoConnection(admin: Client): Promise<{ id: number; status: string; queueIds: number[] }> {
  const list = await admin.get("/whatsapp");
  const found = list.body.find((w: { name: string }) => w.name === "WhatsApp Demo");
  if (!found) throw new Error(`No demo connection in ${JSON.stringify(list.body)}`);
  return found;
}

/** Resolves with the first bus event that `match` accepts (rejects after `ms`). */
export function nextEvent(server: TestServer, match: (e: BusEvent) => boolean, ms = 10_000): Promise<BusEvent> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      reject(new Error("Timed out waiting for an event"));
    }, ms);
    const stop = server.deps.bus.subscribe((event) => {
      if (!match(event)) return;
      clearTimeout(timer);
      stop();
      resolve(event);
    });
  });
}

/** Polls `probe` until it returns a value other than undefined (bounded wait). */
export async function eventually<T>(probe: () => Promise<T | undefined> | T | undefined, ms = 10_000, what = "condition"): Promise<T> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`Timed out waiting for ${what}`);
}

/** The session events of one connection, for flag assertions. */
export function sessionEvents(server: TestServer, whatsappId: number): { events: Array<Record<string, unknown>>; stop(): void } {
  const events: Array<Record<string, unknown>> = [];
  const stop = server.deps.bus.subscribe((event) => {
    const data = event.data as { session?: { id: number } };
    // The admins' half of each change (the others get the same without the QR codes).
    if (event.channel.endsWith("-whatsappSession") && event.scope.kind === "admins" && data.session?.id === whatsappId) {
      events.push(data as Record<string, unknown>);
    }
  });
  return { events, stop };
}
