/**
 * Dates in the company's time zone (issue #41): the dashboard's and the report's pickers show
 * and read wall-clock times of the company (setting `timezone`), not of the browser, so an
 * admin in another zone sees the spec's "today 08:00 to 18:00" as 08:00 to 18:00. Pure; the
 * zone's offset comes from Intl (dashboard.ts `zoneOffset`).
 */
import { zoneOffset } from "./dashboard.ts";

const pad = (n: number) => String(n).padStart(2, "0");

/** `YYYY-MM-DDTHH:mm` of instant `ms` on the wall clock of `timeZone` (a datetime-local value). */
export function wallClock(ms: number, timeZone: string): string {
  const d = new Date(ms + zoneOffset(ms, timeZone));
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
}

/** The instant of wall-clock `YYYY-MM-DD[THH:mm]` in `timeZone`; NaN when malformed. */
export function fromWallClock(text: string, timeZone: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2}))?$/.exec(text.trim());
  if (!m) return NaN;
  const guess = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4] ?? 0), Number(m[5] ?? 0));
  const first = guess - zoneOffset(guess, timeZone);
  return guess - zoneOffset(first, timeZone);
}

/** dd/MM/yyyy HH:mm of `ms` in `timeZone` (spec 000 §9's formats). */
export function formatInZone(ms: number, timeZone: string): string {
  const [date, time] = wallClock(ms, timeZone).split("T");
  const [y, mo, d] = date.split("-");
  return `${d}/${mo}/${y} ${time}`;
}

/** "UTC−03:00" of `timeZone` at `ms`. */
export function utcOffsetText(ms: number, timeZone: string): string {
  const minutes = Math.round(zoneOffset(ms, timeZone) / 60_000);
  const sign = minutes < 0 ? "−" : "+";
  const abs = Math.abs(minutes);
  return `UTC${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** The company's local day holding `ms`: its start and end instants. */
export function dayAround(ms: number, timeZone: string): [number, number] {
  const date = wallClock(ms, timeZone).slice(0, 10);
  const [y, m, d] = date.split("-").map(Number);
  const next = new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
  return [fromWallClock(date, timeZone), fromWallClock(next, timeZone)];
}
