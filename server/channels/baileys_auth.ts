/**
 * Baileys' `AuthenticationState` kept in Deno KV instead of files (DESIGN §6): the creds
 * under `["baileys_auth", companyId, whatsappId, "creds"]` and each signal key under
 * `["baileys_auth", companyId, whatsappId, type, id]`, as JSON text with Baileys'
 * `BufferJSON` so binary fields survive. Logout deletes the whole prefix.
 */
import type { AuthenticationCreds, AuthenticationState, SignalDataTypeMap } from "@whiskeysockets/baileys";

import { loadBaileys } from "./baileys_lib.ts";

/** KV prefix of one connection's Baileys auth. */
export const baileysAuthPrefix = (companyId: number, whatsappId: number): Deno.KvKey => [
  "baileys_auth",
  companyId,
  whatsappId,
];

/** An auth state bound to KV, with explicit save and clear. */
export interface KvAuth {
  state: AuthenticationState;
  saveCreds(): Promise<void>;
  clear(): Promise<void>;
  /** Whether creds were stored before (a paired device). */
  registered: boolean;
}

/** Loads (or creates) the auth state of a connection. */
export async function kvAuthState(kv: Deno.Kv, companyId: number, whatsappId: number): Promise<KvAuth> {
  const { BufferJSON, initAuthCreds, proto } = await loadBaileys();
  const encode = (value: unknown) => JSON.stringify(value, BufferJSON.replacer);
  const decode = (text: string) => JSON.parse(text, BufferJSON.reviver);
  const prefix = baileysAuthPrefix(companyId, whatsappId);
  const stored = await kv.get<string>([...prefix, "creds"]);
  const creds: AuthenticationCreds = stored.value ? decode(stored.value) : initAuthCreds();
  const state: AuthenticationState = {
    creds,
    keys: {
      async get<T extends keyof SignalDataTypeMap>(type: T, ids: string[]) {
        const result: { [id: string]: SignalDataTypeMap[T] } = {};
        for (let i = 0; i < ids.length; i += 10) {
          const chunk = ids.slice(i, i + 10);
          const entries = await kv.getMany<string[]>(chunk.map((id) => [...prefix, type, id]));
          entries.forEach((entry, j) => {
            if (entry.value === null) return;
            let value = decode(entry.value);
            if (type === "app-state-sync-key" && value) {
              value = proto.Message.AppStateSyncKeyData.fromObject(value);
            }
            result[chunk[j]] = value;
          });
        }
        return result;
      },
      async set(data) {
        let atomic = kv.atomic();
        let count = 0;
        for (const [type, values] of Object.entries(data)) {
          for (const [id, value] of Object.entries(values ?? {})) {
            const key = [...prefix, type, id];
            if (value) atomic.set(key, encode(value));
            else atomic.delete(key);
            if (++count % 500 === 0) {
              await atomic.commit();
              atomic = kv.atomic();
            }
          }
        }
        await atomic.commit();
      },
    },
  };
  return {
    state,
    registered: stored.value !== null,
    saveCreds: async () => {
      await kv.set([...prefix, "creds"], encode(state.creds));
    },
    clear: async () => {
      for await (const entry of kv.list({ prefix })) await kv.delete(entry.key);
    },
  };
}
