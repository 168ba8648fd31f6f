/**
 * Toasts (spec 000 §8): error codes are translated, unknown codes shown raw, a plain string
 * as is, anything else 'An error occurred!'. Each toast closes after 2 s and is keyed, so
 * the same code shows once at a time. A tiny store the `<Toasts/>` component subscribes to.
 */
import { readContactMessage } from "../../domain/contact.ts";
import { hasText, t } from "./i18n.ts";

/** One toast on screen. */
export interface Toast {
  key: string;
  kind: "error" | "success" | "info" | "warning";
  text: string;
}

export const TOAST_MS = 2000;
let toasts: Toast[] = [];
const listeners = new Set<() => void>();
const timers = new Map<string, ReturnType<typeof setTimeout>>();

function emit() {
  for (const l of listeners) l();
}

/** Subscribes to toast changes (for useSyncExternalStore). */
export function subscribeToasts(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The toasts currently shown. */
export function currentToasts(): Toast[] {
  return toasts;
}

/** Shows `text` for 2 s under `key` (a toast with the same key is replaced). */
export function showToast(kind: Toast["kind"], text: string, key = text): void {
  toasts = [...toasts.filter((x) => x.key !== key), { key, kind, text }];
  clearTimeout(timers.get(key));
  timers.set(key, setTimeout(() => dismissToast(key), TOAST_MS));
  emit();
}

/** Removes the toast `key`. */
export function dismissToast(key: string): void {
  toasts = toasts.filter((x) => x.key !== key);
  timers.delete(key);
  emit();
}

/**
 * The text shown for an error body or thrown value (spec 000 §8 rules). A body whose message
 * is one of the spec's own texts that name a contact ('O contato: {name} já está adicionado a
 * uma carteira.', 'Contato já cadastrado com o nome {name}') shows that text, translated,
 * rather than the generic one of its code.
 */
export function errorText(error: unknown): { key: string; text: string } {
  const message = typeof error === "object" && error !== null && "message" in error ? (error as { message?: unknown }).message : undefined;
  const named = readContactMessage(message);
  if (named) return { key: named.kind, text: t(`inbox.${named.kind}`, { name: named.name }) };
  const code = typeof error === "object" && error !== null && "code" in error
    ? (error as { code?: unknown }).code
    : typeof error === "object" && error !== null && "error" in error
    ? (error as { error?: unknown }).error
    : undefined;
  if (typeof code === "string" && code) {
    const key = `backendErrors.${code}`;
    return { key: code, text: hasText(key) ? t(key) : code };
  }
  if (typeof error === "string" && error) return { key: error, text: error };
  return { key: "generic", text: t("backendErrors.generic") };
}

/** Shows an error toast for a failed call. */
export function toastError(error: unknown): void {
  const { key, text } = errorText(error);
  showToast("error", text, key);
}
