/**
 * The Horários tab of /settings (spec 001 §2.4, §2.5), shown when scheduleType is "company":
 * Monday to Sunday, each a start and an end with the ##:## mask, and the lunch hour, saved
 * with PUT /companies/{id}/schedules and 'Horários atualizados com sucesso.'. Times are
 * checked with the server's own schema (domain/company_hours.ts) before the call; a refusal's
 * messages, keyed by the body's paths, land on the matching inputs.
 */
import { useEffect, useState } from "react";
import { api, type ApiError, get } from "../lib/api.ts";
import { t } from "../lib/i18n.ts";
import { showToast, toastError } from "../lib/toast.ts";
import { TextField, useSchemaForm } from "../ui/form.tsx";
import { Skeleton } from "../ui/States.tsx";
import { OpenNow } from "../ui/OpenNow.tsx";
import type { SettingsTabProps } from "../SettingsPage.tsx";
import {
  type CompanyHoursValues,
  formToHours,
  hoursToForm,
  type Weekday,
  WEEKDAYS,
} from "../../domain/company_hours.ts";
import type { WeekdaySchedule } from "../../domain/company.ts";

/** The company fields this tab reads (GET /companies/{id}). */
interface CompanyHours {
  id: number;
  schedules: WeekdaySchedule[];
  lunchHour: { startTime: string; endTime: string } | null;
}

const MASK = "##:##";

/** A server field path (`schedules.2.endTime`, `lunchHour.startTime`) as the form's field name. */
function formField(path: string): string {
  const day = /^schedules\.(\d)\.(startTime|endTime)$/.exec(path);
  if (day) return `${WEEKDAYS[Number(day[1])]}${day[2] === "startTime" ? "Start" : "End"}`;
  const lunch = /^lunchHour\.(startTime|endTime)$/.exec(path);
  return lunch ? (lunch[1] === "startTime" ? "lunchStart" : "lunchEnd") : path;
}

/** The hours tab. */
export function HoursTab({ viewer }: SettingsTabProps) {
  const [company, setCompany] = useState<CompanyHours | null>(null);
  useEffect(() => {
    get<CompanyHours>(`/companies/${viewer.companyId}`).then(setCompany, toastError);
  }, [viewer.companyId]);
  if (!company) return <Skeleton rows={8} />;
  return <HoursForm company={company} />;
}

/** The weekday form of one company. */
function HoursForm({ company }: { company: CompanyHours }) {
  const form = useSchemaForm<CompanyHoursValues>({
    schema: "CompanyHoursForm",
    initial: hoursToForm(company.schedules, company.lunchHour),
    onSubmit: async (values) => {
      try {
        await api("PUT", `/companies/${company.id}/schedules`, formToHours(values));
      } catch (error) {
        const body = (error as ApiError).body as { fields?: Record<string, string> } | undefined;
        if (!body?.fields) throw error;
        const fields = Object.fromEntries(Object.entries(body.fields).map(([path, message]) => [formField(path), message]));
        throw { body: { ...body, fields } };
      }
      showToast("success", t("settingsHours.saved"));
    },
  });
  const row = (name: string, label: string, key: string) => (
    <div className={key === "lunch" ? "hours-row hours-lunch" : "hours-row"} key={key} role="group" aria-label={label}>
      <span className="hours-day">{label}</span>
      <TextField form={form} name={`${name}Start`} label={t("settingsHours.startOf", { day: label })} mask={MASK} placeholder="00:00" />
      <TextField form={form} name={`${name}End`} label={t("settingsHours.endOf", { day: label })} mask={MASK} placeholder="00:00" />
    </div>
  );
  return (
    <form className="settings-hours" onSubmit={form.submit} noValidate data-testid="settings-hours">
      <p className="muted">{t("settingsHours.intro")}</p>
      <OpenNow hours={formToHours(form.values)} />
      <div className="hours-head" aria-hidden="true">
        <span>{t("settingsHours.weekday")}</span>
        <span>{t("settingsHours.start")}</span>
        <span>{t("settingsHours.end")}</span>
      </div>
      {WEEKDAYS.map((day: Weekday) => row(day, t(`settingsHours.day.${day}`), day))}
      {row("lunch", t("settingsHours.lunch"), "lunch")}
      <div className="hours-actions">
        <button type="submit" className="btn btn-primary" disabled={form.busy} aria-busy={form.busy} data-testid="hours-save">
          {form.busy ? t("common.saving") : t("settingsHours.save")}
        </button>
      </div>
    </form>
  );
}
