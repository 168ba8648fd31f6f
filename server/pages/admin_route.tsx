/**
 * The frame of an admin route: the shell, and either the page or, when the viewer may not
 * open it (ctx.gate, decided on the server by routeGate), the gate's message in place of
 * the page; the shell island then shows the toast and goes to / (spec 001 §8, 002 §2.1).
 */
import type { ReactNode } from "react";
import { t } from "../../islands/lib/i18n.ts";
import type { RenderContext } from "./island.tsx";
import { ShellLayout } from "./shell.tsx";

/** The shell around an admin page, or around its gate notice. */
export function AdminRoute({ ctx, children }: { ctx: RenderContext; children: ReactNode }) {
  const gate = ctx.gate;
  return (
    <ShellLayout ctx={ctx}>
      {gate ? <p className="gate-notice" role="alert" data-testid="gate-notice">{t(gate.text)}</p> : children}
    </ShellLayout>
  );
}
