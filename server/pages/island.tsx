/**
 * Server side of the islands: `<Island>` renders a component into a marked element and
 * records its props, which the document serializes so the client can hydrate it there.
 * Each island renders under a jotai Provider of its own (a fresh store), as the browser
 * hydrates it under the page's store (islands/lib/page_store.ts): no state crosses requests.
 */
import type { ComponentType } from "react";
import { Provider } from "jotai";
import type { Lang } from "../../islands/lib/i18n.ts";
import type { SessionUser } from "../../islands/lib/session.ts";
import type { RouteGate } from "../../islands/shell/menu.ts";

/** What one page render collects and knows. */
export interface RenderContext {
  lang: Lang;
  theme: "light" | "dark";
  path: string;
  islands: { id: number; name: string; props: unknown }[];
  /** The signed-in user when the refresh cookie names one (server/pages/viewer.ts), else null. */
  viewer: SessionUser | null;
  /** What the viewer gets instead of this page, or null (the shell island toasts and redirects). */
  gate: RouteGate | null;
  /** The live events' sequence number before the page's data was read (Hub.resumePoint). */
  liveSeq?: number;
}

/** What every route component receives. */
export interface PageProps {
  ctx: RenderContext;
  params: Record<string, string>;
  /** What the route's `load` returned (its first page of data), or null without a viewer. */
  // deno-lint-ignore no-explicit-any -- each route narrows it to its own loader's result
  data?: any;
}

/** Marks an island: rendered now, hydrated in the browser with the same props. */
export function Island<P extends object>(
  { ctx, name, component: C, props }: { ctx: RenderContext; name: string; component: ComponentType<P>; props: P },
) {
  const id = ctx.islands.length;
  ctx.islands.push({ id, name, props });
  return (
    <div data-island={name} data-island-id={id} className="island">
      <Provider>
        <C {...props} />
      </Provider>
    </div>
  );
}
