/**
 * One list of the queue editor's Integrations tab (GET /typebot/listworkspaces,
 * /typebot/listtypebots, /n8n/listworkFlow), loaded when `path` is set. A failure is kept as
 * a translated reason (integration not configured, service failing), so the tab can say why
 * and fall back to typing the id by hand.
 */
import { useEffect, useState } from "react";
import { ApiError, get } from "../lib/api.ts";
import { hasText, t } from "../lib/i18n.ts";

/** The list's items (under `key` of the answer), whether it loads, and why it failed. */
export interface IntegrationList<T> {
  items: T[];
  loading: boolean;
  error: string | null;
}

/** Why a list failed, in the reader's language. */
function reason(error: unknown): string {
  if (error instanceof ApiError) {
    const key = `backendErrors.${error.code}`;
    if (hasText(key)) return t(key);
  }
  return t("queues.listFailed");
}

/** Loads `path` (nothing while null) and reads the array under `key`. */
export function useIntegrationList<T>(path: string | null, key: string): IntegrationList<T> {
  const [state, setState] = useState<IntegrationList<T>>({ items: [], loading: false, error: null });
  useEffect(() => {
    if (!path) {
      setState({ items: [], loading: false, error: null });
      return;
    }
    let live = true;
    setState((old) => ({ ...old, loading: true, error: null }));
    get<Record<string, unknown>>(path).then(
      (body) => live && setState({ items: Array.isArray(body?.[key]) ? body[key] as T[] : [], loading: false, error: null }),
      (error) => live && setState({ items: [], loading: false, error: reason(error) }),
    );
    return () => {
      live = false;
    };
  }, [path, key]);
  return state;
}
