/**
 * The 'Horários de Atendimento' tab (spec 001 §2.5, §3): seven weekdays with a start and an
 * end in ##:##, and the lunch hour. The values are the form's nested `schedules` and
 * `lunchHour`; their messages come keyed by path (`schedules.2.endTime`).
 */
import { useId } from "react";
import { hasText, t } from "../lib/i18n.ts";
import { applyMask, type SchemaForm } from "../ui/form.tsx";
import type { QueueValues } from "./QueueDialog.tsx";
import { OpenNow } from "../ui/OpenNow.tsx";

const MASK = "##:##";

/** One ##:## input; `label` is its accessible name, `error` its message. */
function TimeInput({ label, value, error, disabled, onChange }: { label: string; value: string; error?: string; disabled: boolean; onChange: (v: string) => void }) {
  const id = useId();
  return (
    <span className="queue-time">
      <input
        id={id}
        className="input"
        inputMode="numeric"
        placeholder="00:00"
        aria-label={label}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        value={value}
        disabled={disabled}
        onChange={(e) => onChange(applyMask(e.target.value, MASK))}
      />
      {error && <span className="field-error" id={`${id}-error`} role="alert">{error}</span>}
    </span>
  );
}

/** The hours tab of the queue dialog. */
export function ScheduleTab({ form }: { form: SchemaForm<QueueValues> }) {
  const { schedules, lunchHour } = form.values;
  const setDay = (i: number, key: "startTime" | "endTime", value: string) =>
    form.set("schedules", schedules.map((d, j) => (j === i ? { ...d, [key]: value } : d)));
  const setLunch = (key: "startTime" | "endTime", value: string) => form.set("lunchHour", { ...lunchHour, [key]: value });
  const dayName = (weekdayEn: string, fallback: string) => {
    const key = `queues.day.${weekdayEn}`;
    return hasText(key) ? t(key) : fallback;
  };
  return (
    <>
      <OpenNow hours={{ schedules, lunchHour }} />
      <table className="queue-hours" data-testid="queue-hours">
        <thead>
          <tr>
            <th scope="col">{t("queues.weekday")}</th>
            <th scope="col">{t("queues.start")}</th>
            <th scope="col">{t("queues.end")}</th>
          </tr>
        </thead>
        <tbody>
          {schedules.map((day, i) => {
            const name = dayName(day.weekdayEn, day.weekday);
            return (
              <tr key={day.weekdayEn || i}>
                <th scope="row">{name}</th>
                <td>
                  <TimeInput label={t("queues.startOf", { day: name })} value={day.startTime} error={form.errors[`schedules.${i}.startTime`]} disabled={form.busy} onChange={(v) => setDay(i, "startTime", v)} />
                </td>
                <td>
                  <TimeInput label={t("queues.endOf", { day: name })} value={day.endTime} error={form.errors[`schedules.${i}.endTime`]} disabled={form.busy} onChange={(v) => setDay(i, "endTime", v)} />
                </td>
              </tr>
            );
          })}
          <tr className="queue-hours-lunch">
            <th scope="row">{t("queues.lunch")}</th>
            <td>
              <TimeInput label={t("queues.startOf", { day: t("queues.lunch") })} value={lunchHour.startTime} error={form.errors["lunchHour.startTime"]} disabled={form.busy} onChange={(v) => setLunch("startTime", v)} />
            </td>
            <td>
              <TimeInput label={t("queues.endOf", { day: t("queues.lunch") })} value={lunchHour.endTime} error={form.errors["lunchHour.endTime"]} disabled={form.busy} onChange={(v) => setLunch("endTime", v)} />
            </td>
          </tr>
        </tbody>
      </table>
    </>
  );
}
