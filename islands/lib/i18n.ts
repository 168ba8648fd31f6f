/**
 * The one `t(key, vars)` of the islands and pages. Portuguese is bundled (default and
 * fallback); English and Spanish are separate chunks loaded before hydration, so a page
 * moves only the language it shows. Switching language stores the choice (localStorage and
 * a `lang` cookie the server reads to render the same language) and reloads the page.
 */
import pt, { type LocaleKey } from "../locales/pt.ts";

export type { LocaleKey };
/** Supported languages; `pt` is the default and the fallback. */
export const LANGS = ["pt", "en", "es"] as const;
export type Lang = typeof LANGS[number];

type Dict = Readonly<Record<LocaleKey, string>>;

let current: { lang: Lang; dict: Dict } = { lang: "pt", dict: pt };

/** Whether `value` names a supported language. */
export function isLang(value: unknown): value is Lang {
  return typeof value === "string" && (LANGS as readonly string[]).includes(value);
}

/** The text for `key` in the current language, with `{{name}}` placeholders filled. */
export function t(key: LocaleKey, vars?: Record<string, string | number>): string {
  const text = current.dict[key] ?? pt[key] ?? key;
  return vars ? text.replace(/\{\{(\w+)\}\}/g, (_, name) => String(vars[name] ?? "")) : text;
}

/** Whether `key` exists in the locale (used to translate server error codes). */
export function hasText(key: string): key is LocaleKey {
  return Object.hasOwn(pt, key);
}

/** The language texts are currently taken from. */
export function currentLang(): Lang {
  return current.lang;
}

/** Uses an already loaded dictionary (the server has all three). */
export function setDict(lang: Lang, dict: Dict): void {
  current = { lang, dict };
}

/** Loads `lang`'s dictionary (a separate chunk for en and es) and makes it current. */
export async function loadLang(lang: Lang): Promise<void> {
  if (lang === "en") setDict(lang, (await import("../locales/en.ts")).default);
  else if (lang === "es") setDict(lang, (await import("../locales/es.ts")).default);
  else setDict("pt", pt);
}

/** Stores the language choice and reloads so server and islands render it. */
export function switchLang(lang: Lang): void {
  localStorage.setItem("language", lang);
  document.cookie = `lang=${lang}; path=/; max-age=31536000; samesite=lax`;
  location.reload();
}
