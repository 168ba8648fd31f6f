/**
 * The composer's reply assistant (issue #20): whether it is offered (the plan has useAI and
 * the company's AI module has an endpoint, a model and instructions: GET /ai-module/ once per
 * composer) and the call that asks for a suggestion (POST /ai-module/suggest/{ticketId}).
 * A failure is a toast (a timeout says to try again) and leaves the conversation and the
 * typed text as they were; the answer is only returned, never sent.
 */
import { useEffect, useRef, useState } from "react";
import { ApiError, api, get } from "../lib/api.ts";
import { t } from "../lib/i18n.ts";
import { planHas, type SessionUser } from "../lib/session.ts";
import { showToast } from "../lib/toast.ts";
import { type AiSettingRow, assistantReady, valuesOf } from "../ai_module/settings.ts";

/** What the composer needs of the assistant. */
export interface AiSuggest {
  available: boolean;
  busy: boolean;
  /** The suggestion for the ticket, or null after a failure (already toasted). */
  suggest: () => Promise<string | null>;
}

/** The assistant of `user`'s composer for ticket `ticketId`. */
export function useAiSuggest(user: SessionUser, ticketId: number): AiSuggest {
  const enabled = planHas(user, "useAI");
  const [available, setAvailable] = useState(false);
  const [busy, setBusy] = useState(false);
  const current = useRef(ticketId);
  current.current = ticketId;

  useEffect(() => {
    if (!enabled) return setAvailable(false);
    let live = true;
    get<AiSettingRow[]>("/ai-module/").then(
      (rows) => live && setAvailable(assistantReady(valuesOf(rows))),
      () => live && setAvailable(false),
    );
    return () => {
      live = false;
    };
  }, [enabled, user.companyId]);

  async function suggest(): Promise<string | null> {
    const asked = ticketId;
    setBusy(true);
    try {
      const { suggestion } = await api<{ suggestion: string }>("POST", `/ai-module/suggest/${asked}`);
      // The agent moved to another conversation meanwhile: this text is not for that one.
      return current.current === asked ? suggestion : null;
    } catch (error) {
      const status = error instanceof ApiError ? error.status : 0;
      const code = error instanceof ApiError ? error.code : "";
      showToast(
        "error",
        t(status === 504 ? "aiSuggest.timeout" : code === "ERR_INTEGRATION_NOT_CONFIGURED" ? "aiSuggest.notConfigured" : "aiSuggest.failed"),
      );
      return null;
    } finally {
      setBusy(false);
    }
  }

  return { available, busy, suggest };
}
