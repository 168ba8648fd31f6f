/** /ai-module: the AI module page of spec 002 §2.17, its settings read on the server. */
import AiModulePage, { type AiModulePageProps } from "../islands/AiModulePage.tsx";
import { Island, type PageProps } from "../server/pages/island.tsx";
import type { PageLoad } from "../server/pages/loader.ts";
import { AdminRoute } from "../server/pages/admin_route.tsx";

/** The page's own stylesheet (static/pages/ai_module.css). */
export const css = "ai_module";

/** The company's AI settings as GET /ai-module/ answers them. */
export function load(l: PageLoad) {
  return l.api("/ai-module/");
}

/** The AI module page. */
export default function AiModuleRoute({ ctx, data }: PageProps) {
  return (
    <AdminRoute ctx={ctx}>
      <Island<AiModulePageProps> ctx={ctx} name="AiModulePage" component={AiModulePage} props={{ initial: data ?? null, viewer: ctx.viewer }} />
    </AdminRoute>
  );
}
