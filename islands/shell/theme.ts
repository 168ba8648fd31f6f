/**
 * Theme (spec 002 "Theme handling"): light by default, dark swaps the token values
 * (html[data-theme]). The platform's colours (mainColor, scrollbarColor, toolbarBackground,
 * backgroundPages) are not handled here: the server puts them in every page's head
 * (server/pages/document.ts, domain/branding.ts), so there is nothing to apply or cache.
 * The theme shown is an atom of the page's store (lib/page_store.ts): the top bar's toggle
 * reads and writes it, and the stored choice restored at load moves it too.
 */
import { atom } from "jotai";
import { readLocal, writeCookie, writeLocal } from "../lib/storage.ts";
import { pageStore } from "../lib/page_store.ts";

/** The two themes. */
export type Theme = "light" | "dark";

/** The theme the page shows now. */
function currentTheme(): Theme {
  return document.documentElement.dataset.theme === "dark" ? "dark" : "light";
}

/** Applies and remembers a theme (localStorage and a cookie the server renders with). */
function applyTheme(theme: Theme): void {
  document.documentElement.dataset.theme = theme;
  writeLocal("theme", theme);
  writeCookie("theme", theme);
}

const shownTheme = atom<Theme>("light");
shownTheme.onMount = (set) => set(currentTheme());

/** The page's theme: read it to show it; write it to apply and remember one. */
export const themeAtom = atom(
  (get) => get(shownTheme),
  (_get, set, theme: Theme) => {
    applyTheme(theme);
    set(shownTheme, theme);
  },
);

/** On load: a theme stored locally wins over the cookie (the cookie may be missing). */
export function restoreTheme(): void {
  const stored = readLocal("theme");
  if ((stored === "dark" || stored === "light") && stored !== currentTheme()) pageStore().set(themeAtom, stored);
}
