/** /messages-api: the external messages API page of spec 001 §2.17, the company's queues read on the server. */
import MessagesApiPage, { type MessagesApiPageProps } from "../islands/MessagesApiPage.tsx";
import { Island, type PageProps } from "../server/pages/island.tsx";
import type { PageLoad } from "../server/pages/loader.ts";
import { AdminRoute } from "../server/pages/admin_route.tsx";

/** The page's own stylesheet (static/pages/messages_api.css). */
export const css = "messages_api";

/** The company's queues as GET /queue answers them (the text form's queue choice). */
export function load(l: PageLoad) {
  return l.api("/queue");
}

/** The API page. */
export default function MessagesApiRoute({ ctx, data }: PageProps) {
  return (
    <AdminRoute ctx={ctx}>
      <Island<MessagesApiPageProps> ctx={ctx} name="MessagesApiPage" component={MessagesApiPage} props={{ initial: data ?? null, viewer: ctx.viewer }} />
    </AdminRoute>
  );
}
