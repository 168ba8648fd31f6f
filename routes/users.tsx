/** /users: the users screen of spec 001 §2.13, its first page and the names it needs read on the server. */
import UsersPage, { type UsersPageProps } from "../islands/UsersPage.tsx";
import { namedRefs, type UsersResponse } from "../islands/users/user_row.ts";
import { Island, type PageProps } from "../server/pages/island.tsx";
import type { PageLoad } from "../server/pages/loader.ts";
import { AdminRoute } from "../server/pages/admin_route.tsx";

/** The page's stylesheet (static/pages/users.css). */
export const css = "users";

/** What `load` hands the page: GET /users/'s first page, and queues and connections as id and name. */
interface UsersData {
  users: UsersResponse | null;
  queues: ReturnType<typeof namedRefs> | null;
  connections: ReturnType<typeof namedRefs> | null;
}

/** The first page of users as GET /users/ answers it, with the company's queues and connections. */
export async function load(l: PageLoad): Promise<UsersData> {
  const [users, queues, connections] = await Promise.all([
    l.api<UsersResponse>("/users/?pageNumber=1"),
    l.api<unknown>("/queue"),
    l.api<unknown>("/whatsapp"),
  ]);
  return {
    users,
    queues: queues === null ? null : namedRefs(queues),
    connections: connections === null ? null : namedRefs(connections),
  };
}

/** The users page. */
export default function UsersRoute({ ctx, data }: PageProps) {
  const loaded = data as UsersData | undefined;
  return (
    <AdminRoute ctx={ctx}>
      <Island<UsersPageProps>
        ctx={ctx}
        name="UsersPage"
        component={UsersPage}
        props={{
          initial: loaded?.users ?? null,
          viewer: ctx.viewer,
          queues: loaded?.queues ?? null,
          connections: loaded?.connections ?? null,
        }}
      />
    </AdminRoute>
  );
}
