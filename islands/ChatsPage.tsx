/**
 * The internal chat page (spec 002 §2.8): the viewer's chats on the left with a new-chat
 * button, the open chat on the right; under 600 px two tabs, Chats and Mensagens. The address
 * names the open chat by its uuid (/chats/{uuid}). Live: `company-{id}-chat-user-{userId}`
 * brings chats the viewer joins, `company-{id}-chat` changes, new messages and deletions,
 * `company-{id}-chat-{chatId}` the open chat's messages (use_chat_messages.ts); the server
 * sends them to members only. Opening a chat, and a message arriving in the open chat while
 * the tab is visible, clears the viewer's unread count (POST /chats/{id}/read).
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { unreadsOf } from "../domain/chat.ts";
import { api, get } from "./lib/api.ts";
import { t } from "./lib/i18n.ts";
import type { SessionUser } from "./lib/session.ts";
import { channelName, onChannel } from "./lib/socket.ts";
import { ChatDialog } from "./chats/ChatDialog.tsx";
import { ChatList } from "./chats/ChatList.tsx";
import { ChatPane } from "./chats/ChatPane.tsx";
import { type ChatList as ChatListBody, type ChatMessageView, type ChatsData, type ChatView, sortChats, upsertChat } from "./chats/types.ts";
import { useChatMessages } from "./chats/use_chat_messages.ts";
import { useViewer } from "./ui/AdminPage.tsx";
import { ConfirmDialog } from "./ui/ConfirmDialog.tsx";
import { EmptyState } from "./ui/States.tsx";

/** Props of the ChatsPage island. */
export interface ChatsPageProps {
  initial: ChatsData | null;
  viewer: SessionUser | null;
  /** The uuid of the address, if any. */
  chatUuid: string | null;
}

/** The address of a chat (or of the page). */
const pathOf = (chat: ChatView | null) => (chat ? `/chats/${chat.uuid}` : "/chats");

/** The chat page. */
export default function ChatsPage({ initial, viewer: serverViewer, chatUuid }: ChatsPageProps) {
  const viewer = useViewer(serverViewer);
  const viewerId = viewer?.id ?? 0;
  const companyId = viewer?.companyId ?? 0;
  const [chats, setChats] = useState<ChatView[] | null>(initial?.list ? sortChats(initial.list.records) : null);
  const [failed, setFailed] = useState(false);
  const listPage = useRef({ page: 1, hasMore: initial?.list?.hasMore ?? false, busy: false });
  const [currentId, setCurrentId] = useState<number | null>(initial?.current?.id ?? null);
  const [current, setCurrent] = useState<ChatView | null>(initial?.current ?? null);
  const [pane, setPane] = useState<"list" | "chat">(chatUuid && initial?.current ? "chat" : "list");
  const [dialog, setDialog] = useState<ChatView | "new" | null>(null);
  const [deleting, setDeleting] = useState(false);

  const markRead = useCallback((chat: ChatView) => {
    if (unreadsOf(chat, viewerId) === 0) return;
    api<ChatView>("POST", `/chats/${chat.id}/read`, { userId: viewerId }).then((c) => setChats((old) => old && upsertChat(old, c)), () => {});
  }, [viewerId]);

  const messages = useChatMessages(companyId, viewer ? currentId : null, initial?.messages ?? null, (m: ChatMessageView) => {
    if (m.senderId !== viewerId && document.visibilityState === "visible") {
      api("POST", `/chats/${m.chatId}/read`, { userId: viewerId }).catch(() => {});
    }
  });

  const loadList = useCallback(async (pageNumber: number) => {
    const state = listPage.current;
    if (state.busy) return;
    state.busy = true;
    try {
      const r = await get<ChatListBody>(`/chats/?pageNumber=${pageNumber}`);
      setChats((old) => sortChats(pageNumber === 1 ? r.records : [...(old ?? []).filter((c) => !r.records.some((x) => x.id === c.id)), ...r.records]));
      state.page = pageNumber;
      state.hasMore = r.hasMore;
      setFailed(false);
    } catch {
      setFailed(true);
    } finally {
      state.busy = false;
    }
  }, []);

  // The current chat follows the list (its unread counts, title and members change live).
  useEffect(() => {
    if (currentId === null || !chats) return;
    const found = chats.find((c) => c.id === currentId);
    if (found) setCurrent(found);
  }, [chats, currentId]);

  const open = useCallback((chat: ChatView | null, push = true) => {
    setCurrentId(chat?.id ?? null);
    setCurrent(chat);
    setPane(chat ? "chat" : "list");
    if (push && location.pathname !== pathOf(chat)) history.pushState(null, "", pathOf(chat));
    if (chat) markRead(chat);
  }, [markRead]);

  const currentRef = useRef(currentId);
  currentRef.current = currentId;
  const openRef = useRef(open);
  openRef.current = open;

  // First render: the list (when the server could not read it) and the address's chat read.
  useEffect(() => {
    if (!viewer) return;
    if (!initial?.list) loadList(1);
    if (initial?.current) markRead(initial.current);
    else if (chatUuid) {
      get<ChatView>(`/chats/${chatUuid}`).then((c) => open(c, false), () => history.replaceState(null, "", "/chats"));
    }
  }, [viewer?.id]);

  // Back and forward between chats.
  useEffect(() => {
    const onPop = () => {
      const uuid = location.pathname.split("/")[2] ?? "";
      const chat = chats?.find((c) => c.uuid === uuid) ?? null;
      open(chat, false);
    };
    addEventListener("popstate", onPop);
    return () => removeEventListener("popstate", onPop);
  }, [chats, open]);

  // Live changes of the viewer's chats.
  useEffect(() => {
    if (!viewer) return;
    const upsert = (chat: ChatView | undefined) => chat && setChats((old) => upsertChat(old ?? [], chat));
    const offMine = onChannel(channelName(companyId, `chat-user-${viewerId}`), (data) => {
      const event = data as { action?: string; record?: ChatView };
      if (event.action === "create" || event.action === "update") upsert(event.record);
    });
    const offAll = onChannel(channelName(companyId, "chat"), (data) => {
      const event = data as { action?: string; chat?: ChatView; id?: number };
      if (event.action === "new-message" || event.action === "update") upsert(event.chat);
      if (event.action === "delete" && event.id !== undefined) {
        setChats((old) => old && old.filter((c) => c.id !== event.id));
        if (currentRef.current === event.id) {
          openRef.current(null, false);
          history.replaceState(null, "", "/chats");
        }
      }
    });
    const offResync = onChannel("resync", () => loadList(1));
    return () => {
      offMine();
      offAll();
      offResync();
    };
  }, [viewer?.id]);

  const send = useCallback(async (text: string) => {
    if (currentId === null) return false;
    try {
      messages.add(await api<ChatMessageView>("POST", `/chats/${currentId}/messages`, { message: text }));
      return true;
    } catch {
      return false;
    }
  }, [currentId, messages.add]);

  return (
    <div className="tickets-page chats-page" data-pane={pane} data-testid="chats-page">
      <div className="pane-tabs narrow-only" role="tablist" aria-label={t("chats.title")}>
        <button type="button" role="tab" aria-selected={pane === "list"} onClick={() => setPane("list")} data-testid="chats-tab-list">
          {t("chats.tabChats")}
        </button>
        <button type="button" role="tab" aria-selected={pane === "chat"} onClick={() => setPane("chat")} data-testid="chats-tab-messages">
          {t("chats.tabMessages")}
        </button>
      </div>
      <section className="list-pane" aria-label={t("chats.tabChats")}>
        <ChatList
          chats={chats}
          failed={failed}
          viewerId={viewerId}
          currentId={currentId}
          onSelect={(c) => open(c)}
          onNew={() => setDialog("new")}
          onRetry={() => loadList(1)}
          onNearEnd={() => listPage.current.hasMore && loadList(listPage.current.page + 1)}
        />
      </section>
      <section className="chat-pane" aria-label={t("chats.tabMessages")}>
        {current
          ? (
            <ChatPane
              chat={current}
              viewerId={viewerId}
              list={messages}
              onSend={send}
              onEdit={() => setDialog(current)}
              onDelete={() => setDeleting(true)}
              onBack={() => setPane("list")}
            />
          )
          : <div className="no-ticket"><EmptyState text={t("chats.noneSelected")} /></div>}
      </section>
      {dialog && (
        <ChatDialog
          chat={dialog === "new" ? null : dialog}
          viewerId={viewerId}
          onClose={() => setDialog(null)}
          onSaved={(chat) => {
            setChats((old) => upsertChat(old ?? [], chat));
            if (dialog === "new") open(chat);
          }}
        />
      )}
      <ConfirmDialog
        open={deleting}
        onOpenChange={setDeleting}
        onConfirm={() => {
          if (!current) return;
          const id = current.id;
          api("DELETE", `/chats/${id}`).then(() => {
            setChats((old) => old && old.filter((c) => c.id !== id));
            if (currentRef.current === id) open(null);
          }, () => {});
        }}
      />
    </div>
  );
}
