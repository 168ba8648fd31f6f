/**
 * /simulator: the customers' phone (DESIGN §6, issue #37). The company's simulated connection
 * is a WhatsApp number; this page is the phone of whoever writes to it. On the left the
 * phone's chats (customers who talked with the company, the address book, "Nova conversa");
 * on the right one customer's chat as their WhatsApp shows it, where the person sends text,
 * files, a location or a contact card as that customer, taps the bot's menu, and marks the
 * company's messages read. Under 600 px one pane at a time, with a back button. The phone's
 * state (connected, waiting for its QR to be read, offline) is said in words, with the QR and
 * the button that reads it. Everything is the simulator's API (server/api/simulator.ts).
 */
import { useCallback, useEffect, useState } from "react";
import { Smartphone } from "lucide-react";
import { api } from "./lib/api.ts";
import { t } from "./lib/i18n.ts";
import type { SessionUser } from "./lib/session.ts";
import { showToast, toastError } from "./lib/toast.ts";
import { AdminPage, useViewer } from "./ui/AdminPage.tsx";
import { EmptyState, ErrorState, Skeleton } from "./ui/States.tsx";
import { PhoneChats } from "./simulator/PhoneChats.tsx";
import { PhoneChat } from "./simulator/PhoneChat.tsx";
import { NewChatDialog } from "./simulator/PhoneDialogs.tsx";
import { PhoneState } from "./simulator/PhoneState.tsx";
import { useChats, usePhones, useThread } from "./simulator/use_phone.ts";
import type { PhoneInfo, PhoneSend, PhonesResponse } from "./simulator/types.ts";

/** Props of the SimulatorPage island. */
export interface SimulatorPageProps {
  initial: PhonesResponse | null;
  viewer: SessionUser | null;
  /** The connection the address names (`?c=`), if any. */
  connectionId: number | null;
}

/** The page; see the module doc. */
export default function SimulatorPage({ initial, viewer: serverViewer, connectionId }: SimulatorPageProps) {
  const viewer = useViewer(serverViewer);
  const companyId = viewer?.companyId ?? 0;
  const phones = usePhones(companyId, initial);
  const [phoneId, setPhoneId] = useState<number | null>(connectionId ?? initial?.phones[0]?.id ?? null);
  const phone: PhoneInfo | undefined = phones.phones?.find((p) => p.id === phoneId);
  useEffect(() => {
    if (phoneId === null && phones.phones?.length) setPhoneId(phones.phones[0].id);
  }, [phones.phones]);

  const [chat, setChat] = useState<{ number: string; name: string } | null>(null);
  const [newChat, setNewChat] = useState(false);
  const chats = useChats(companyId, phoneId);
  const thread = useThread(companyId, phoneId, chat?.number ?? null);

  const send = useCallback(async (message: PhoneSend) => {
    if (!chat || phoneId === null) return;
    try {
      await api("POST", `/simulator/${phoneId}/inbound`, { from: chat.number, name: chat.name, ...message });
      thread.reload();
    } catch (error) {
      toastError((error as { body?: unknown }).body ?? error);
    }
  }, [chat, phoneId, thread.reload]);

  const read = useCallback(async () => {
    if (!chat || phoneId === null) return;
    try {
      const { read } = await api<{ read: number }>("POST", `/simulator/${phoneId}/read`, { number: chat.number });
      showToast("success", read > 0 ? t("simulator.markedRead", { count: read }) : t("simulator.nothingUnread"));
      thread.reload();
    } catch (error) {
      toastError((error as { body?: unknown }).body ?? error);
    }
  }, [chat, phoneId, thread.reload]);

  const body = phones.failed && !phones.phones
    ? <ErrorState onRetry={phones.reload} />
    : phones.phones === null
    ? <Skeleton rows={6} />
    : phones.phones.length === 0 || !phone
    ? <EmptyState text={t("simulator.noPhones")} icon={<Smartphone size={32} aria-hidden="true" />} />
    : (
      <>
        <PhoneState phone={phone} onChanged={phones.reload} />
        <div className="phone-sim" data-pane={chat ? "chat" : "list"} data-testid="phone">
          <PhoneChats
            chats={chats.chats}
            failed={chats.failed}
            current={chat?.number ?? null}
            onOpen={(c) => setChat({ number: c.number, name: c.name })}
            onNew={() => setNewChat(true)}
            onRetry={chats.reload}
          />
          {chat
            ? (
              <PhoneChat
                number={chat.number}
                name={chat.name}
                thread={thread.thread}
                failed={thread.failed}
                connected={phone.connected}
                onRetry={thread.reload}
                onBack={() => setChat(null)}
                onSend={send}
                onRead={read}
              />
            )
            : <div className="phone-chat phone-chat-none"><EmptyState text={t("simulator.pickChat")} /></div>}
        </div>
      </>
    );

  return (
    <AdminPage
      title={t("simulator.title")}
      actions={phones.phones && phones.phones.length > 1 && (
        <label className="phone-picker">
          <span>{t("simulator.phone")}</span>
          <select className="input" value={phoneId ?? ""} onChange={(e) => {
            setPhoneId(Number(e.target.value));
            setChat(null);
          }}>
            {phones.phones.map((p) => <option key={p.id} value={p.id}>{p.name}</option>)}
          </select>
        </label>
      )}
      testId="simulator-page"
    >
      <p className="muted phone-intro">{t("simulator.intro")}</p>
      {body}
      {newChat && <NewChatDialog onClose={() => setNewChat(false)} onStart={(name, number) => setChat({ name, number })} />}
    </AdminPage>
  );
}
