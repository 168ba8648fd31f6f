/**
 * The AI module's settings of a company (domain/ai_module.ts): one collection per company,
 * one record per key, so a POST that finds its key stored (409) and a PUT that does not (404)
 * are decided inside the collection's mailbox, never by a read-then-write race.
 */
import { AppError } from "../../domain/errors.ts";
import { type AiConfig, aiConfigOf, type AiKey, AiSetting } from "../../domain/ai_module.ts";
import type { ActorSystem } from "../_runtime/system.ts";
import { defineCollection } from "../collection/mod.ts";

/** The settings collection (scope = company id). */
export const aiSettings = defineCollection<AiSetting>({
  name: "ai_setting",
  parse: (raw) => AiSetting.parse(raw),
});

/** The company's stored settings, in id order. */
export function listAiSettings(system: ActorSystem, companyId: number): Promise<AiSetting[]> {
  return aiSettings.in(system, companyId).list();
}

/** What the reply assistant reads (missing keys as ""). */
export async function aiConfig(system: ActorSystem, companyId: number): Promise<AiConfig> {
  return aiConfigOf(await listAiSettings(system, companyId));
}

/**
 * Stores `key` = `value`: `mode` "create" refuses a stored key (409 ERR_CONFLICT, use PUT),
 * "update" a missing one (404 ERR_NO_SETTING_FOUND, use POST).
 */
export function writeAiSetting(
  system: ActorSystem,
  companyId: number,
  key: AiKey,
  value: string,
  mode: "create" | "update",
): Promise<AiSetting> {
  return aiSettings.in(system, companyId).transact((view) => {
    const old = [...view.records.values()].find((s) => s.key === key);
    if (mode === "create" && old) {
      throw new AppError("ERR_CONFLICT", { status: 409, message: `AI setting ${key} already exists: update it with PUT /ai-module` });
    }
    if (mode === "update" && !old) {
      throw new AppError("ERR_NO_SETTING_FOUND", { status: 404, message: `AI setting ${key} not found: create it with POST /ai-module` });
    }
    const next: AiSetting = old
      ? { ...old, value, updatedAt: view.now }
      : { id: view.nextId(), companyId, key, value, createdAt: view.now, updatedAt: view.now };
    return { put: [next], reply: next };
  });
}
