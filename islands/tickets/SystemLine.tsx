/**
 * A ticket tracking note as a centred grey line among the messages (shared/UI.md "system
 * lines for transfers"): 'Transferido para {fila}/{usuário}', 'Devolvido à fila {fila}',
 * 'Aceito por {usuário}', 'Resolvido por …', 'Reaberto por …', with who did it and the time;
 * and the bot integrations' notes (a failed Typebot/n8n call, a bot flow that ended).
 */
import { formatTime } from "../lib/format.ts";
import { t } from "../lib/i18n.ts";
import type { TrackingNote } from "./use_tracking.ts";

/** The text of a note (without the time). */
export function trackingText(note: TrackingNote): string {
  const queue = note.queueName ?? t("tickets.noQueue");
  const user = note.userName ?? "";
  const by = note.byUserName ?? "";
  switch (note.action) {
    case "accept":
      return t("tracking.accept", { user: user || by });
    case "transfer":
      return user ? t("tracking.transferUser", { queue, user }) : t("tracking.transferQueue", { queue });
    case "return":
      return t("tracking.return", { queue });
    case "close":
      return t("tracking.close", { by });
    case "reopen":
      return t("tracking.reopen", { by });
    case "integrationFailed":
      return t("tracking.integrationFailed", { detail: note.detail ?? "" });
    case "botFinished":
      return t("tracking.botFinished", { detail: note.detail ?? "" });
    case "chatbot":
      return t("tracking.chatbot", { choice: note.detail ?? "" });
  }
}

/** One note as a system line; transfers and returns name who did them. */
export function SystemLine({ note }: { note: TrackingNote }) {
  const by = (note.action === "transfer" || note.action === "return") && note.byUserName
    ? ` · ${t("tracking.by", { by: note.byUserName })}`
    : "";
  return (
    <div className="system-line" role="note" data-testid="system-line" data-action={note.action}>
      <span>
        {trackingText(note)}
        {by} <time dateTime={note.createdAt}>{formatTime(note.createdAt)}</time>
      </span>
    </div>
  );
}
