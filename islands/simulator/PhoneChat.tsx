/**
 * One chat on the simulated phone: the customer and the company's number at the top (a back
 * button under 600 px, "Marcar como lidas"), the messages as WhatsApp shows them (newest at
 * the bottom, kept in view as they arrive, a line for each day), and the composer. Only the latest bot menu with no
 * answer after it offers its buttons.
 */
import { useEffect, useMemo, useRef } from "react";
import { ArrowLeft, CheckCheck } from "lucide-react";
import { formatPhone } from "../../domain/phone_mask.ts";
import { formatDate } from "../lib/format.ts";
import { t } from "../lib/i18n.ts";
import { EmptyState, ErrorState, Skeleton } from "../ui/States.tsx";
import { initialOf } from "./PhoneChats.tsx";
import { PhoneBubble } from "./PhoneBubble.tsx";
import { PhoneComposer } from "./PhoneComposer.tsx";
import type { MenuOption, PhoneSend, PhoneThread } from "./types.ts";

/** Props of PhoneChat. */
export interface PhoneChatProps {
  number: string;
  name: string;
  thread: PhoneThread | null;
  failed: boolean;
  connected: boolean;
  onRetry: () => void;
  onBack: () => void;
  onSend: (message: PhoneSend) => Promise<void>;
  onRead: () => void;
}

/** The chat; see the module doc. */
export function PhoneChat({ number, name, thread, failed, connected, onRetry, onBack, onSend, onRead }: PhoneChatProps) {
  const log = useRef<HTMLDivElement>(null);
  const messages = thread?.messages ?? [];
  const title = thread?.name || name || formatPhone(number);
  // The live menu: the company's last message with a menu, with no customer message after it.
  const liveMenu = useMemo(() => {
    for (let i = messages.length - 1; i >= 0; i--) {
      if (messages[i].mine) return null;
      if (messages[i].menu) return messages[i].id;
    }
    return null;
  }, [messages]);
  useEffect(() => {
    const el = log.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [messages.length, messages.at(-1)?.ack]);

  const pick = (option: MenuOption) => onSend({ body: option.id });
  const today = formatDate(Date.now());
  return (
    <section className="phone-chat" aria-label={title}>
      <header className="phone-chat-header">
        <button type="button" className="icon-btn phone-back" aria-label={t("simulator.back")} title={t("simulator.back")} onClick={onBack}>
          <ArrowLeft size={20} aria-hidden="true" />
        </button>
        <span className="phone-avatar" aria-hidden="true">{initialOf(title)}</span>
        <span className="phone-chat-title">
          <strong>{title}</strong>
          <small>{formatPhone(number)}</small>
        </span>
        <button type="button" className="btn btn-small" onClick={onRead} disabled={!connected} data-testid="phone-mark-read">
          <CheckCheck size={16} aria-hidden="true" /> {t("simulator.markRead")}
        </button>
      </header>
      <div className="phone-messages" ref={log} role="log" aria-live="polite" data-testid="phone-messages">
        {failed ? <ErrorState onRetry={onRetry} /> : thread === null ? <Skeleton rows={5} /> : messages.length === 0
          ? <EmptyState text={t("simulator.emptyThread")} />
          : messages.map((m, i) => {
            const day = formatDate(m.createdAt);
            const separator = i === 0 || day !== formatDate(messages[i - 1].createdAt);
            return (
              <div key={m.id}>
                {separator && <div className="day-separator"><span>{day === today ? t("messages.today") : day}</span></div>}
                <PhoneBubble message={m} menuLive={m.id === liveMenu} onPick={pick} />
              </div>
            );
          })}
      </div>
      <PhoneComposer disabled={!connected} onSend={onSend} />
    </section>
  );
}
