/**
 * The AI module's settings as the page and the composer read them (GET /ai-module/), and how a
 * section saves its keys: POST for a key not yet stored, PUT for a stored one (spec 002 §7),
 * skipping the values that did not change.
 */
import type { AiKey } from "../../domain/ai_module.ts";
import { api } from "../lib/api.ts";

/** A setting as GET /ai-module/ answers it (the API key masked). */
export interface AiSettingRow {
  id: number;
  key: AiKey;
  value: string;
}

/** The stored values by key (a key absent was never stored). */
export type AiValues = Partial<Record<AiKey, string>>;

/** Rows → values by key. */
export function valuesOf(rows: readonly AiSettingRow[] | null): AiValues {
  return Object.fromEntries((rows ?? []).map((r) => [r.key, r.value]));
}

/** Whether the reply assistant can answer: endpoint, model and instructions stored. */
export function assistantReady(values: AiValues): boolean {
  return !!values["form-endpoint"] && !!values.model && !!values["system-message"];
}

/** Saves `next` over `stored` (one call per changed key); resolves with the new stored values. */
export async function saveKeys(stored: AiValues, next: AiValues): Promise<AiValues> {
  const out = { ...stored };
  for (const [key, value] of Object.entries(next) as [AiKey, string][]) {
    if (stored[key] === value) continue;
    const row = await api<AiSettingRow>(key in stored ? "PUT" : "POST", "/ai-module", { key, value });
    out[key] = row.value;
  }
  return out;
}
