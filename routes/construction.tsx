/** Every private route whose screen is not built yet: the shell with an "em construção" note. */
import { Construction } from "lucide-react";
import { t } from "../islands/lib/i18n.ts";
import type { PageProps } from "../server/pages/island.tsx";
import { ShellLayout } from "../server/pages/shell.tsx";

/** The placeholder page (server-rendered only; no island of its own). */
export default function ConstructionRoute({ ctx }: PageProps) {
  return (
    <ShellLayout ctx={ctx}>
      <section className="state-page" aria-labelledby="construction-title">
        <Construction size={48} aria-hidden="true" />
        <h1 id="construction-title">{t("construction.title")}</h1>
        <p>{t("construction.text", { path: ctx.path })}</p>
      </section>
    </ShellLayout>
  );
}
