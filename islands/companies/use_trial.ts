/**
 * The platform's `trial` setting (sign-up trial length in days, spec 001 §3, §9) as the
 * Cadastrar Empresa tab needs it: from the tab's server-read first data when present, else
 * read once through GET /settings/trial.
 */
import { useEffect, useState } from "react";
import { get } from "../lib/api.ts";

/** The API path of the setting (also one of the tab's first-data paths). */
export const TRIAL_PATH = "/settings/trial";

/** The setting's raw value, undefined until known (callers fall back to the default). */
export function useTrialSetting(initial: Record<string, unknown> | null): string | undefined {
  const first = (initial?.[TRIAL_PATH] as { value?: string } | null | undefined)?.value;
  const [value, setValue] = useState<string | undefined>(first);
  useEffect(() => {
    if (initial && TRIAL_PATH in initial) return;
    let live = true;
    get<{ value?: string }>(TRIAL_PATH).then((r) => live && setValue(r.value), () => {});
    return () => {
      live = false;
    };
  }, []);
  return value;
}
