/**
 * The company's clock beside its opening hours (issue #41): the time now in the company's
 * zone and whether the hours shown are open at this moment, so an admin closing the hours
 * from another time zone sees what a customer writing now would meet. The hours are the
 * form's current values (a preview before saving); domain/schedule_hours.ts decides.
 */
import { useEffect, useState } from "react";
import { get } from "../lib/api.ts";
import { t } from "../lib/i18n.ts";
import { isOpen, localClock, type OpeningHours } from "../../domain/schedule_hours.ts";

/** Props of OpenNow. */
export interface OpenNowProps {
  hours: OpeningHours;
}

const pad = (n: number) => String(n).padStart(2, "0");

/** "Agora na empresa: terça-feira 14:32 (America/Sao_Paulo) · Aberto agora". */
export function OpenNow({ hours }: OpenNowProps) {
  const [zone, setZone] = useState<string | null>(null);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    get<{ value?: string }>("/settings/timezone").then((s) => setZone(s?.value || "America/Sao_Paulo"), () => setZone("America/Sao_Paulo"));
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  if (!zone) return null;
  const clock = localClock(now, zone);
  const open = isOpen(hours, clock);
  const time = `${pad(Math.floor(clock.minutes / 60))}:${pad(clock.minutes % 60)}`;
  const day = t(`settingsHours.day.${clock.weekdayEn}` as never);
  return (
    <p className={`open-now ${open ? "open-now-open" : "open-now-closed"}`} role="status" data-testid="open-now">
      {t("openNow.clock", { day, time, zone })} · <strong>{t(open ? "openNow.open" : "openNow.closed")}</strong>
    </p>
  );
}
