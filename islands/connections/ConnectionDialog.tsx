/**
 * The add/edit connection dialog of spec 001 §2.2: name and the default flag, the provider,
 * the five messages (4 rows each), token, webhook, ignored numbers, the queues, the transfer
 * queue with its interval (disabled, 2–5, 10–55 by 5, 60 minutes) and the inactivity close
 * (disabled, 5–600 by 5 minutes, §9). Checked with WhatsappInput, the server's own schema;
 * sent 400 ms after a valid submit. Editing reads the record afresh (GET /whatsapp/{id}):
 * the list's copy may come from a live event, which carries no token.
 */
import { useEffect, useState } from "react";
import { INACTIVITY_INTERVALS, MOVE_INTERVALS, newWhatsapp, SELECTABLE_PROVIDERS, type Whatsapp } from "../../domain/whatsapp.ts";
import { DEFAULT_INACTIVITY_MINUTES } from "../../domain/ticket_timers.ts";
import { get } from "../lib/api.ts";
import { type LocaleKey, t } from "../lib/i18n.ts";
import { toastError } from "../lib/toast.ts";
import { CheckField, CheckListField, type Choice, SelectField, TextField } from "../ui/form.tsx";
import { RecordDialog, type RecordDialogProps, useRecordForm } from "../ui/record_dialogs.tsx";
import { Modal } from "../ui/Modal.tsx";
import { Skeleton } from "../ui/States.tsx";
import type { ConnectionRow, QueueRef } from "./rows.ts";
import { CLOUD_FIELDS, CloudApiFields } from "./CloudApiFields.tsx";

/** The fields the form edits: WhatsappInput's. */
const FIELDS = [
  "name",
  "isDefault",
  "provider",
  "greetingMessage",
  "complationMessage",
  "outOfHoursMessage",
  "ratingMessage",
  "closeMessage",
  "token",
  "webhook",
  "ignoreNumbers",
  "queueIds",
  "selectedMoveQueueId",
  "selectedInterval",
  "inatividade",
  ...CLOUD_FIELDS,
] as const satisfies readonly (keyof Whatsapp)[];

/** The form's values. */
type ConnectionValues = Pick<Whatsapp, typeof FIELDS[number]> & Record<string, unknown>;

/** Spec 001 §9: the submit delay of the connection modal. */
const SUBMIT_DELAY_MS = 400;

const valuesOf = (record: Whatsapp): ConnectionValues =>
  Object.fromEntries(FIELDS.map((k) => [k, record[k]])) as ConnectionValues;

/** A new connection's values: the defaults the server gives a new record. */
const EMPTY = valuesOf(newWhatsapp(0, 0, 0));

/** Interval choices; 0 is "Desativado", or the text given (the inactivity's 24-hour default). */
const minutes = (options: readonly number[], zero = t("connections.disabled")): Choice<number>[] =>
  options.map((n) => ({ value: n, label: n === 0 ? zero : t("connections.minutes", { n }) }));

/** Props of ConnectionDialog. */
export interface ConnectionDialogProps extends RecordDialogProps<ConnectionRow> {
  /** The company's queues, once read (the page learns their names for live rows). */
  onQueues: (queues: QueueRef[]) => void;
}

/** Reads the queues (and, to edit, the record), then shows the form. */
export function ConnectionDialog({ row, onClose, onSaved, onQueues }: ConnectionDialogProps) {
  const [loaded, setLoaded] = useState<{ queues: QueueRef[]; values: ConnectionValues } | null>(null);
  useEffect(() => {
    let live = true;
    Promise.all([get<QueueRef[]>("/queue"), row ? get<Whatsapp>(`/whatsapp/${row.id}`) : null]).then(
      ([queues, record]) => {
        if (!live) return;
        onQueues(queues);
        setLoaded({ queues, values: record ? valuesOf(record) : EMPTY });
      },
      (error) => {
        toastError((error as { body?: unknown }).body ?? error);
        onClose();
      },
    );
    return () => {
      live = false;
    };
  }, []);
  const title = t(row ? "connections.edit" : "connections.add");
  if (!loaded) {
    return (
      <Modal open onOpenChange={(o) => !o && onClose()} title={title} wide>
        <Skeleton rows={4} />
      </Modal>
    );
  }
  return <ConnectionForm row={row} title={title} initial={loaded.values} queues={loaded.queues} onClose={onClose} onSaved={onSaved} />;
}

/** The form itself. */
function ConnectionForm(
  { row, title, initial, queues, onClose, onSaved }: RecordDialogProps<ConnectionRow> & { title: string; initial: ConnectionValues; queues: QueueRef[] },
) {
  const form = useRecordForm<ConnectionValues, ConnectionRow>({
    schema: "WhatsappInput",
    initial,
    delayMs: SUBMIT_DELAY_MS,
    path: "/whatsapp",
    row,
    savedText: t("connections.saved"),
    onSaved,
    onClose,
  });
  const queueChoices = queues.map((q) => ({ value: q.id, label: q.name }));
  const message = (name: keyof ConnectionValues & string) => (
    <TextField form={form} name={name} label={t(`connections.${name}` as LocaleKey)} rows={4} variables />
  );
  return (
    <RecordDialog form={form} title={title} onClose={onClose} wide testId="connection-save">
      <div className="connection-form">
        <TextField form={form} name="name" label={t("connections.name")} autoFocus />
        <SelectField
          form={form}
          name="provider"
          label={t("connections.provider")}
          options={SELECTABLE_PROVIDERS.map((p) => ({ value: p, label: t(`connections.provider.${p}` as LocaleKey) }))}
        />
        <CheckField form={form} name="isDefault" label={t("connections.isDefault")} />
        {form.values.provider === "cloudapi" && <CloudApiFields form={form} connectionId={row?.id ?? null} />}
        <div className="connection-wide">
          {message("greetingMessage")}
          {message("complationMessage")}
          {message("outOfHoursMessage")}
          {message("ratingMessage")}
          {message("closeMessage")}
        </div>
        <TextField form={form} name="token" label={t("connections.token")} hint={t("connections.tokenHint")} />
        <TextField form={form} name="webhook" label={t("connections.webhook")} type="url" />
        <div className="connection-wide">
          <TextField form={form} name="ignoreNumbers" label={t("connections.ignoreNumbers")} hint={t("connections.ignoreNumbersHint")} />
          <CheckListField form={form} name="queueIds" label={t("connections.queues")} options={queueChoices} />
        </div>
        <SelectField form={form} name="selectedMoveQueueId" label={t("connections.moveQueue")} options={queueChoices} empty={t("connections.disabled")} />
        <SelectField form={form} name="selectedInterval" label={t("connections.moveInterval")} options={minutes(MOVE_INTERVALS)} />
        <SelectField form={form} name="inatividade" label={t("connections.inactivity")} options={minutes(INACTIVITY_INTERVALS, t("inbox.autoCloseDefault", { hours: DEFAULT_INACTIVITY_MINUTES / 60 }))} />
      </div>
    </RecordDialog>
  );
}
