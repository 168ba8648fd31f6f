/**
 * A date as dd/MM/yyyy HH:mm in the reader's time zone. The server renders the first page in
 * its own zone, which may not be the browser's: the first client render keeps the server's
 * text (no hydration error) and the component redraws in the browser's zone once mounted.
 * Every table with a date column uses it.
 */
import { useEffect, useState } from "react";
import { formatDate, formatTime } from "../lib/format.ts";

/** dd/MM/yyyy HH:mm of `value` (milliseconds or ISO text). */
export function LocalDateTime({ value }: { value: number | string }) {
  const [, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  return <time dateTime={new Date(value).toISOString()} suppressHydrationWarning>{`${formatDate(value)} ${formatTime(value)}`}</time>;
}
