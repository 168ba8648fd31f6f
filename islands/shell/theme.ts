/**
 * Theme and company colours (spec 002 "Theme handling"): light by default, dark swaps the
 * token values (html[data-theme]); mainColor, scrollbarColor, toolbarBackground and
 * backgroundPages override tokens and are cached locally so a reload paints them at once.
 */
import { type SessionUser, setting } from "../lib/session.ts";
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

const COLOR = /^#[0-9a-f]{3,8}$|^rgba?\([\d\s.,%]+\)$/i;

/** Sets the company's colour tokens from its settings and caches them. */
export function applyCompanyColors(user: SessionUser): void {
  const vars: Record<string, string> = {};
  const main = setting(user, "mainColor");
  const scroll = setting(user, "scrollbarColor");
  const toolbar = setting(user, "toolbarBackground");
  const background = setting(user, "backgroundPages");
  if (COLOR.test(main)) vars["--primary"] = main;
  if (COLOR.test(scroll)) vars["--scrollbar"] = scroll;
  if (COLOR.test(toolbar)) vars["--toolbar-bg"] = toolbar;
  if (background && /^(https?:\/\/|\/)[^\s"'()]+$/.test(background)) vars["--page-bg-image"] = `url("${background}")`;
  const style = document.documentElement.style;
  for (const name of ["--primary", "--scrollbar", "--toolbar-bg", "--page-bg-image"]) {
    if (vars[name]) style.setProperty(name, vars[name]);
    else style.removeProperty(name);
  }
  writeLocal("companyColors", JSON.stringify(vars));
}
