/**
 * The page's shared client state (DESIGN §7: jotai). A page is several islands, each its own
 * React root (lib/hydrate.ts); what they share — the session, the toasts, the theme, the
 * volume, the unread counts — lives in atoms of one store per page, which every island is
 * hydrated under (`<Provider store={pageStore()}>`). Code outside React (a toast after a
 * failed call, a socket handler, a profile save) reads and writes the same atoms through
 * `pageStore()`.
 *
 * On the server each island renders under a Provider of its own (server/pages/island.tsx),
 * so no request sees another's state and nothing here is ever created there. An atom whose
 * browser value the server cannot know (the session before /auth/me answers, toasts, the
 * stored volume) is read with `useHydratedAtomValue`: the server's value while the island
 * hydrates, then the store's, so the first client render matches the server's HTML.
 */
import { type Atom, createStore, useAtomValue } from "jotai";
import { useSyncExternalStore } from "react";

/** A jotai store. */
export type PageStore = ReturnType<typeof createStore>;

let store: PageStore | undefined;

/** The store of this page (made on first use, in the browser). */
export function pageStore(): PageStore {
  return store ??= createStore();
}

const never = () => () => {};

/** Whether this render is past hydration (false on the server and while hydrating). */
function useHydrated(): boolean {
  return useSyncExternalStore(never, () => true, () => false);
}

/** `atom`'s value, or `serverValue` on the server and while the island hydrates (module doc). */
export function useHydratedAtomValue<T>(atom: Atom<T>, serverValue: T): T {
  const value = useAtomValue(atom);
  return useHydrated() ? value : serverValue;
}
