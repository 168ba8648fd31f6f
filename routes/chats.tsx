/**
 * /chats and /chats/{uuid}: the internal chat of spec 002 §2.8 (plan flag useInternalChat,
 * gated by islands/shell/menu.ts routeGate). Its first data is read on the server: the
 * viewer's first page of chats and, for an address with a chat, that chat and its newest
 * messages, so the first paint shows the conversation.
 */
import ChatsPage, { type ChatsPageProps } from "../islands/ChatsPage.tsx";
import type { ChatList, ChatMessagePage, ChatsData, ChatView } from "../islands/chats/types.ts";
import { Island, type PageProps } from "../server/pages/island.tsx";
import type { PageLoad } from "../server/pages/loader.ts";
import { AdminRoute } from "../server/pages/admin_route.tsx";

/** The page's own stylesheet (static/pages/chats.css). */
export const css = "chats";

/** The first page of chats, and the address's chat with its first page of messages. */
export async function load(l: PageLoad): Promise<ChatsData> {
  const uuid = l.params.id;
  const [list, current] = await Promise.all([
    l.api<ChatList>("/chats/?pageNumber=1"),
    uuid ? l.api<ChatView>(`/chats/${encodeURIComponent(uuid)}`) : null,
  ]);
  const messages = current ? await l.api<ChatMessagePage>(`/chats/${current.id}/messages?pageNumber=1`) : null;
  return { list, current, messages };
}

/** The chat page. */
export default function ChatsRoute({ ctx, data, params }: PageProps) {
  const props: ChatsPageProps = { initial: (data as ChatsData | undefined) ?? null, viewer: ctx.viewer, chatUuid: params.id ?? null };
  return (
    <AdminRoute ctx={ctx}>
      <Island<ChatsPageProps> ctx={ctx} name="ChatsPage" component={ChatsPage} props={props} />
    </AdminRoute>
  );
}
