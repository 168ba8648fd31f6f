/** The private pages' frame: the shell island (drawer and top bar) and the content area. */
import type { ReactNode } from "react";
import AppShell from "../../islands/AppShell.tsx";
import { Island, type RenderContext } from "./island.tsx";

/** Lays out the shell around `children` (the page's own content or islands). */
export function ShellLayout({ ctx, children }: { ctx: RenderContext; children: ReactNode }) {
  return (
    <div className="app">
      <Island ctx={ctx} name="AppShell" component={AppShell} props={{ path: ctx.path }} />
      <main className="app-content" id="content">{children}</main>
    </div>
  );
}
