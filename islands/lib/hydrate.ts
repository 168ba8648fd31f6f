/**
 * Client runtime of the islands: finds the elements the server marked with
 * `data-island="Name"`, reads their serialized props and hydrates the component there, under
 * the page's one jotai store (page_store.ts), so the islands of a page share its atoms.
 * The language is loaded first so the first client render matches the server's HTML.
 */
import { createElement, type ComponentType } from "react";
import { hydrateRoot } from "react-dom/client";
import { Provider } from "jotai";
import { isLang, loadLang } from "./i18n.ts";
import { pageStore } from "./page_store.ts";

let langReady: Promise<void> | undefined;

/**
 * The page's Content-Security-Policy admits `<style>` elements by nonce only
 * (server/http/security_headers.ts). Radix's scroll lock adds one at run time through
 * react-style-singleton, which asks get-nonce, which reads `__webpack_nonce__`: handed the
 * nonce the server put on the branding's `<style>` (server/pages/document.ts) before any
 * island renders. Browsers show an element's nonce to scripts only as the `nonce` property.
 */
function shareStyleNonce(): void {
  const nonce = document.querySelector<HTMLStyleElement>("style[nonce]")?.nonce;
  if (nonce) (globalThis as { __webpack_nonce__?: string }).__webpack_nonce__ = nonce;
}
shareStyleNonce();

/** Hydrates every element marked for island `name` with component `C`. */
export async function hydrateIslands(name: string, C: ComponentType<Record<string, unknown>>): Promise<void> {
  const lang = document.documentElement.lang;
  langReady ??= loadLang(isLang(lang) ? lang : "pt");
  await langReady;
  for (const el of document.querySelectorAll<HTMLElement>(`[data-island="${name}"]`)) {
    const script = document.getElementById(`island-props-${el.dataset.islandId}`);
    const props = script?.textContent ? JSON.parse(script.textContent) : {};
    hydrateRoot(el, createElement(Provider, { store: pageStore() }, createElement(C, props)));
  }
}
