/** /todolist: the browser-local to-do list of spec 002 §2.18 (no data from the server). */
import TodoListPage, { type TodoListPageProps } from "../islands/TodoListPage.tsx";
import { Island, type PageProps } from "../server/pages/island.tsx";
import { AdminRoute } from "../server/pages/admin_route.tsx";

/** The engagement pages' stylesheet (static/pages/engage.css). */
export const css = "engage";

/** The to-do page. */
export default function TodoListRoute({ ctx }: PageProps) {
  return (
    <AdminRoute ctx={ctx}>
      <Island<TodoListPageProps> ctx={ctx} name="TodoListPage" component={TodoListPage} props={{ viewer: ctx.viewer }} />
    </AdminRoute>
  );
}
