/**
 * Server side of the islands: `<Island>` renders a component into a marked element and
 * records its props, which the document serializes so the client can hydrate it there.
 */
import type { ComponentType } from "react";
import type { Lang } from "../../islands/lib/i18n.ts";

/** What one page render collects and knows. */
export interface RenderContext {
  lang: Lang;
  theme: "light" | "dark";
  path: string;
  islands: { id: number; name: string; props: unknown }[];
}

/** What every route component receives. */
export interface PageProps {
  ctx: RenderContext;
  params: Record<string, string>;
}

/** Marks an island: rendered now, hydrated in the browser with the same props. */
export function Island<P extends object>(
  { ctx, name, component: C, props }: { ctx: RenderContext; name: string; component: ComponentType<P>; props: P },
) {
  const id = ctx.islands.length;
  ctx.islands.push({ id, name, props });
  return (
    <div data-island={name} data-island-id={id} className="island">
      <C {...props} />
    </div>
  );
}
