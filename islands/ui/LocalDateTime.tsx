/**
 * A date as dd/MM/yyyy HH:mm in the reader's time zone. The server renders the first page in
 * its own zone, which may not be the browser's: the first client render keeps the server's
 * text (no hydration error) and the component redraws in the browser's zone once mounted.
 * Every table with a date column uses it.
 */
import { useEffect, useState } from "react";
import { formatDate, formatTime } from "../lib/format.ts";
import { formatInZone } from "../../domain/zoned_time.ts";

/**
 * dd/MM/yyyy HH:mm of `value` (milliseconds or ISO text), on the wall clock of `timeZone`
 * when given (the company's, #41: the same text on the server and in any browser).
 */
export function LocalDateTime({ value, timeZone }: { value: number | string; timeZone?: string }) {
  const [, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  const ms = new Date(value).getTime();
  const text = timeZone ? formatInZone(ms, timeZone) : `${formatDate(value)} ${formatTime(value)}`;
  return <time dateTime={new Date(value).toISOString()} suppressHydrationWarning>{text}</time>;
}
