/**
 * Where dropped-connection alerts live (domain/connection_alert.ts): one key per connection,
 * `["connection_alert", companyId, whatsappId]`, written by its session actor in the same
 * atomic as the session's state. Read from KV, not kept in memory: the bell and the platform
 * owner's page read them rarely, and one list over the prefix sees every process's companies.
 */
import { ConnectionAlert } from "../../domain/connection_alert.ts";

/** KV key of a connection's alert. */
export function connectionAlertKey(companyId: number, whatsappId: number): Deno.KvKey {
  return ["connection_alert", companyId, whatsappId];
}

/** The alerts of one company, or of every company when `companyId` is undefined. */
export async function readConnectionAlerts(kv: Deno.Kv, companyId?: number): Promise<ConnectionAlert[]> {
  const prefix: Deno.KvKey = companyId === undefined ? ["connection_alert"] : ["connection_alert", companyId];
  const alerts: ConnectionAlert[] = [];
  for await (const entry of kv.list({ prefix })) {
    const parsed = ConnectionAlert.safeParse(entry.value);
    if (parsed.success) alerts.push(parsed.data);
  }
  return alerts;
}
