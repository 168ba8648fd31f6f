/** /wallets: the wallet of spec 002 §2.13, its first page read on the server. */
import WalletsPage, { type WalletsPageProps } from "../islands/WalletsPage.tsx";
import { Island, type PageProps } from "../server/pages/island.tsx";
import type { PageLoad } from "../server/pages/loader.ts";
import { AdminRoute } from "../server/pages/admin_route.tsx";

/** The engagement pages' stylesheet (static/pages/engage.css). */
export const css = "engage";

/** The first page of the wallet as GET /wallets/contacts/ answers it (an admin's: every wallet). */
export function load(l: PageLoad) {
  return l.api("/wallets/contacts/?pageNumber=1");
}

/** The wallet page. */
export default function WalletsRoute({ ctx, data }: PageProps) {
  return (
    <AdminRoute ctx={ctx}>
      <Island<WalletsPageProps> ctx={ctx} name="WalletsPage" component={WalletsPage} props={{ initial: data ?? null, viewer: ctx.viewer }} />
    </AdminRoute>
  );
}
