/**
 * Theme (spec 002 "Theme handling"): light by default, dark swaps the token values
 * (html[data-theme]). The platform's colours (mainColor, scrollbarColor, toolbarBackground,
 * backgroundPages) are not handled here: the server puts them in every page's head
 * (server/pages/document.ts, domain/branding.ts), so there is nothing to apply or cache.
 */
import { readLocal, writeCookie, writeLocal } from "../lib/storage.ts";

/** The current theme. */
export function currentTheme(): "light" | "dark" {
  return document.documentElement.dataset.theme === "dark" ? "dark" : "light";
}

/** Applies and remembers a theme (localStorage and a cookie the server renders with). */
export function applyTheme(theme: "light" | "dark"): void {
  document.documentElement.dataset.theme = theme;
  writeLocal("theme", theme);
  writeCookie("theme", theme);
}

/** On load: a theme stored locally wins over the cookie (the cookie may be missing). */
export function restoreTheme(): void {
  const stored = readLocal("theme");
  if ((stored === "dark" || stored === "light") && stored !== currentTheme()) applyTheme(stored);
}
