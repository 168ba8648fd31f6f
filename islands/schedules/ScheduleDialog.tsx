/**
 * The schedule dialog (spec 001 §2.19, §3 Schedule; 000 ticket options "Agendamento"): contact,
 * message, date and time, connection (the default one preselected), queue, open a ticket and
 * assign it to a user, repetition with its weekdays, and one attachment. Validated with the
 * server's own ScheduleInput ('Obrigatório', 'Mensagem muito curta'), sent as the spec's
 * client sends it: multipart with `scheduleData` (JSON) and `file`. Used by /schedules and by
 * the ticket's options menu (loaded lazily there, so the inbox does not carry it).
 */
import { useRef, useState } from "react";
import { Paperclip, Upload, X } from "lucide-react";
import { MAX_REPEAT, REPEAT_FOREVER, WEEKDAYS } from "../../domain/schedule_recurrence.ts";
import { api } from "../lib/api.ts";
import { t } from "../lib/i18n.ts";
import { manager, type SessionUser } from "../lib/session.ts";
import { showToast } from "../lib/toast.ts";
import { CheckField, type Choice, FormDialog, SelectField, TextField, useSchemaForm } from "../ui/form.tsx";
import { useOptions } from "../ui/use_options.ts";
import { ContactSearch } from "../tickets/pickers.tsx";
import type { Option } from "../tickets/types.ts";
import { useSearch } from "../tickets/use_search.ts";
import type { ScheduleRow } from "./types.ts";

/** Props of ScheduleDialog. */
export interface ScheduleDialogProps {
  user: SessionUser;
  /** The schedule to edit, or null for a new one. */
  schedule: ScheduleRow | null;
  /** A new schedule's contact, chosen beforehand (the ticket's, or `?contactId=`). */
  contact?: Option | null;
  /** A new schedule's send time (a day clicked on the calendar); an hour from now otherwise. */
  at?: number;
  /** A new schedule's connection (the ticket's); the company's default otherwise. */
  whatsappId?: number | null;
  onClose: () => void;
  onSaved?: (row: ScheduleRow) => void;
}

/** The form's values (ScheduleInput's fields, the date as the datetime-local input holds it). */
interface ScheduleValues extends Record<string, unknown> {
  contactId: number | null;
  body: string;
  sendAt: string;
  whatsappId: number | null;
  queueId: number | null;
  geral: boolean;
  atribuirUser: boolean;
  userId: number | null;
  repeatEvery: number | null;
  selectDaysRecorrenci: string[];
}

const pad = (n: number) => String(n).padStart(2, "0");

/** "YYYY-MM-DDTHH:mm" of `ms` in the browser's zone (a datetime-local input's value). */
function localInput(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

const REPEAT_CHOICES: Choice<number | null>[] = [
  { value: null, label: "" },
  ...Array.from({ length: MAX_REPEAT }, (_, i) => ({ value: i + 1, label: "" })),
  { value: REPEAT_FOREVER, label: "" },
];

function repeatLabel(value: number | null): string {
  if (value === null) return t("schedules.repeatNone");
  if (value === REPEAT_FOREVER) return t("schedules.repeatForever");
  return value === 1 ? t("schedules.repeatOnce") : t("schedules.repeatTimes", { n: value });
}

/** The dialog; see the module doc. */
export function ScheduleDialog({ user, schedule, contact, at, whatsappId, onClose, onSaved }: ScheduleDialogProps) {
  const file = useRef<File | null>(null);
  const [mediaName, setMediaName] = useState<string | null>(schedule?.mediaName ?? null);
  const [picked, setPicked] = useState<Option | null>(
    schedule?.contact ? { id: schedule.contact.id, name: schedule.contact.name } : contact ?? null,
  );
  const [search, setSearch] = useState("");
  const results = useSearch("/contacts/", search, "contacts");
  const connections = useOptions("/whatsapp") as Array<Option & { isDefault?: boolean }>;
  const users = useOptions(manager(user) ? "/users/list" : null);
  const allQueues = useOptions(manager(user) ? "/queue" : null);
  const queues = manager(user) ? allQueues : user.queues;
  const form = useSchemaForm<ScheduleValues>({
    schema: "ScheduleInput",
    initial: {
      contactId: picked?.id ?? null,
      body: schedule?.body ?? "",
      sendAt: localInput(schedule ? Date.parse(schedule.sendAt) : at ?? Date.now() + 3600_000),
      whatsappId: schedule ? schedule.whatsappId : whatsappId ?? null,
      queueId: schedule?.queueId ?? null,
      geral: schedule?.geral ?? false,
      atribuirUser: schedule?.atribuirUser ?? false,
      userId: schedule?.userId ?? user.id,
      repeatEvery: schedule?.repeatEvery ?? null,
      selectDaysRecorrenci: schedule?.selectDaysRecorrenci ? schedule.selectDaysRecorrenci.split(",").map((d) => d.trim()) : [],
    },
    onSubmit: async (v) => {
      const data = {
        ...v,
        sendAt: new Date(v.sendAt).toISOString(),
        userId: v.atribuirUser ? v.userId ?? user.id : null,
        selectDaysRecorrenci: v.repeatEvery ? v.selectDaysRecorrenci.join(", ") : "",
        // Removing the attachment of an edited schedule (a new file replaces it anyway).
        ...(schedule?.mediaPath && !mediaName ? { mediaPath: null } : {}),
      };
      const body = new FormData();
      body.append("scheduleData", JSON.stringify(data));
      if (file.current) body.append("file", file.current);
      const saved = await api<ScheduleRow>(schedule ? "PUT" : "POST", schedule ? `/schedules/${schedule.id}` : "/schedules", body)
        .catch((error) => {
          throw (error as { status?: number }).status === 413 ? { body: { fields: { body: t("schedules.fileTooBig") } } } : error;
        });
      onSaved?.(saved);
      showToast("success", t("schedules.saved"));
      onClose();
    },
  });
  const v = form.values;
  const pickContact = (c: Option | null) => {
    setPicked(c);
    setSearch("");
    form.set("contactId", c?.id ?? null);
  };
  const toggleDay = (day: string) =>
    form.set("selectDaysRecorrenci", v.selectDaysRecorrenci.includes(day) ? v.selectDaysRecorrenci.filter((d) => d !== day) : [...v.selectDaysRecorrenci, day]);

  return (
    <FormDialog open onOpenChange={(o) => !o && onClose()} title={t(schedule ? "schedules.edit" : "schedules.add")} form={form} wide testId="schedule-save">
      <div className="form-full schedule-contact">
        {picked
          ? (
            <div className="field">
              <span className="field-label">{t("schedules.contact")}</span>
              <span className="chip chip-removable" data-testid="schedule-contact">
                {picked.name}
                {!schedule && (
                  <button type="button" aria-label={t("schedules.contactChange")} title={t("schedules.contactChange")} onClick={() => pickContact(null)} disabled={form.busy}>
                    <X size={12} />
                  </button>
                )}
              </span>
            </div>
          )
          : <ContactSearch text={search} onTextChange={setSearch} results={results} onPick={pickContact} error={form.errors.contactId} detailed />}
      </div>
      <div className="form-full">
        <TextField form={form} name="body" label={t("schedules.body")} rows={4} autoFocus={!!picked} variables />
      </div>
      <TextField form={form} name="sendAt" label={t("schedules.sendAt")} type="datetime-local" />
      <SelectField
        form={form}
        name="whatsappId"
        label={t("schedules.connection")}
        empty={t("schedules.connectionDefault")}
        options={connections.map((c) => ({ value: c.id, label: c.name }))}
      />
      <CheckField form={form} name="geral" label={t("schedules.geral")} />
      {v.geral && (
        <SelectField form={form} name="queueId" label={t("schedules.queue")} empty={t("schedules.noQueue")} options={queues.map((q) => ({ value: q.id, label: q.name }))} />
      )}
      {v.geral && <CheckField form={form} name="atribuirUser" label={t("schedules.atribuirUser")} />}
      {v.geral && v.atribuirUser && manager(user) && (
        <SelectField form={form} name="userId" label={t("schedules.user")} options={users.map((u) => ({ value: u.id, label: u.name }))} />
      )}
      <SelectField form={form} name="repeatEvery" label={t("schedules.repeat")} options={REPEAT_CHOICES.map((c) => ({ ...c, label: repeatLabel(c.value) }))} />
      {v.repeatEvery !== null && (
        <fieldset className="field form-full schedule-days" disabled={form.busy}>
          <legend>{t("schedules.days")}</legend>
          <div className="schedule-day-row">
            {WEEKDAYS.map((day) => (
              <label key={day} className={v.selectDaysRecorrenci.includes(day) ? "day-toggle day-on" : "day-toggle"}>
                <input type="checkbox" className="sr-only" checked={v.selectDaysRecorrenci.includes(day)} onChange={() => toggleDay(day)} />
                {t(`schedules.day.${day}`)}
              </label>
            ))}
          </div>
          {form.errors.selectDaysRecorrenci
            ? <span className="field-error" role="alert">{form.errors.selectDaysRecorrenci}</span>
            : <span className="field-hint">{t("schedules.daysHint")}</span>}
        </fieldset>
      )}
      <div className="field form-full">
        <span className="field-label">{t("schedules.attachment")}</span>
        <div className="schedule-attachment">
          {mediaName && (
            <span className="chip" data-testid="schedule-file"><Paperclip size={12} aria-hidden="true" /> {mediaName}</span>
          )}
          <label className="btn">
            <Upload size={16} aria-hidden="true" /> {t(mediaName ? "schedules.replaceFile" : "schedules.attach")}
            <input
              type="file"
              className="sr-only"
              disabled={form.busy}
              data-testid="schedule-file-input"
              onChange={(e) => {
                const chosen = e.target.files?.[0] ?? null;
                e.target.value = "";
                if (!chosen) return;
                file.current = chosen;
                setMediaName(chosen.name);
              }}
            />
          </label>
          {mediaName && (
            <button
              type="button"
              className="icon-btn icon-danger"
              aria-label={t("schedules.removeFile")}
              title={t("schedules.removeFile")}
              disabled={form.busy}
              onClick={() => {
                file.current = null;
                setMediaName(null);
              }}
            >
              <X size={16} />
            </button>
          )}
        </div>
      </div>
    </FormDialog>
  );
}
