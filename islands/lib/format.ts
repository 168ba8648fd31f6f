/**
 * Display formats of spec 000 §2 and §9: dates dd/MM/yyyy and HH:mm, the list's time
 * (HH:mm today, else dd/MM/yyyy HH:mm), the 20-character preview with its special texts, the
 * last-interaction label and its colour, and the 999 badge cap.
 */
import { listPreview, PREVIEW_TEXT } from "../../domain/message.ts";
import { plainText } from "../../domain/whatsapp_format.ts";
import { t } from "./i18n.ts";

const pad = (n: number) => String(n).padStart(2, "0");

/** dd/MM/yyyy of a date (local time). */
export function formatDate(value: string | number | Date): string {
  const d = new Date(value);
  return `${pad(d.getDate())}/${pad(d.getMonth() + 1)}/${d.getFullYear()}`;
}

/** HH:mm of a date (local time). */
export function formatTime(value: string | number | Date): string {
  const d = new Date(value);
  return `${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The ticket list's time: HH:mm when today, else dd/MM/yyyy HH:mm. */
export function listTime(value: string | number | Date | null | undefined, now = new Date()): string {
  if (!value) return "";
  const d = new Date(value);
  return d.toDateString() === now.toDateString() ? formatTime(d) : `${formatDate(d)} ${formatTime(d)}`;
}

/** A count for a badge: capped at 999 (spec 000 §2). */
export function badgeCount(n: number): string {
  return n > 999 ? "999+" : String(n);
}

/**
 * The last-message preview (domain/message.ts listPreview: 20 characters plus '...', '---'
 * when empty) without WhatsApp's formatting markers, with its fixed texts translated.
 */
export function messagePreview(lastMessage: string | null | undefined): string {
  // The stored fixed texts (lastMessageText) are shown whole, not cut at 20 characters.
  const stored = (lastMessage ?? "").trim();
  // WhatsApp's markers are dropped before the cut: `*Alice:*` previews as "Alice:".
  const text = stored === PREVIEW_TEXT.contact || stored === PREVIEW_TEXT.location ? stored : listPreview(plainText(stored));
  if (text === PREVIEW_TEXT.contact) return t("tickets.previewContact");
  if (text === PREVIEW_TEXT.location) return t("tickets.previewLocation");
  return text;
}

/** Last-interaction label and tone: minutes 1–10 green, 11–59 orange, then hours and days red. */
export function lastInteraction(value: string | number | null | undefined, now = Date.now()): { text: string; tone: "success" | "warning" | "danger" } | null {
  if (!value) return null;
  const minutes = Math.max(0, Math.floor((now - new Date(value).getTime()) / 60_000));
  if (minutes <= 10) return { text: t("tickets.lastMinutes", { n: Math.max(1, minutes) }), tone: "success" };
  if (minutes < 60) return { text: t("tickets.lastMinutes", { n: minutes }), tone: "warning" };
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return { text: t("tickets.lastHours", { n: hours }), tone: "danger" };
  return { text: t("tickets.lastDays", { n: Math.floor(hours / 24) }), tone: "danger" };
}

/** The phone link of the ticket header: a 9 inserted after the first 4 digits (spec 000 §2). */
export function phoneLink(number: string): string {
  const digits = number.replace(/\D/g, "");
  return digits.length > 4 ? `tel:+${digits.slice(0, 4)}9${digits.slice(4)}` : `tel:+${digits}`;
}

/** Cuts `text` to `max` characters with '...' (quick-reply labels: 35). */
export function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}...` : text;
}
