/**
 * The queue dialog (spec 001 §2.15, §3, §5): tabs 'Dados da Fila', 'Horários de
 * Atendimento' (only when the company's scheduleType is `queue`), 'Integrações' and, for a
 * saved queue, 'Fluxo do Bot'. The first three are one form validated with QueueInput;
 * after a failed submit the dialog shows the first tab holding an error. The bot flow saves
 * option by option, apart from the form.
 */
import { type FormEvent, useEffect, useRef, useState } from "react";
import { Tabs } from "radix-ui";
import { ApiError } from "../lib/api.ts";
import { hasText, t } from "../lib/i18n.ts";
import { showToast } from "../lib/toast.ts";
import { planHas, useSession } from "../lib/session.ts";
import { CHATBOT_TYPES, DEFAULT_LUNCH, DEFAULT_SCHEDULES, type QueueSchedule, ROUTER_MINUTES } from "../../domain/queue.ts";
import { CheckField, type FormErrors, SelectField, TextField, useSchemaForm } from "../ui/form.tsx";
import { RecordDialog, type RecordDialogProps, saveRecord } from "../ui/record_dialogs.tsx";
import { BotTree } from "./BotTree.tsx";
import { IntegrationFields } from "./IntegrationFields.tsx";
import { ScheduleTab } from "./ScheduleTab.tsx";
import type { LiveViewer } from "../ui/use_live_rows.ts";
import type { QueueRow } from "./types.ts";

/** The form's values (QueueInput's fields; prioridade as typed). */
export interface QueueValues extends Record<string, unknown> {
  name: string;
  color: string;
  prioridade: string;
  greetingMessage: string;
  outOfHoursMessage: string;
  isChatbot: boolean;
  ativarRoteador: boolean;
  tempoRoteador: number;
  typeChatbot: string;
  n8n: string;
  n8nId: string;
  workspaceTypebot: string;
  typebotId: string;
  resetChatbotMsg: boolean;
  schedules: QueueSchedule[];
  lunchHour: { startTime: string; endTime: string };
}

type Tab = "data" | "schedule" | "integrations" | "bot";

const DATA_FIELDS = new Set(["name", "color", "prioridade", "greetingMessage", "outOfHoursMessage", "tempoRoteador", "ativarRoteador", "isChatbot"]);

/** The tab that shows the first of `errors` (null when there are none). */
function tabOf(errors: FormErrors, perQueueHours: boolean): Tab | null {
  const keys = Object.keys(errors).filter((k) => errors[k]);
  if (keys.length === 0) return null;
  if (keys.some((k) => DATA_FIELDS.has(k))) return "data";
  if (perQueueHours && keys.some((k) => /^(schedules|lunchHour)/.test(k))) return "schedule";
  return keys.some((k) => /^(typeChatbot|n8n|workspaceTypebot|typebotId)/.test(k)) ? "integrations" : null;
}

/** A random colour for a new queue (colours are unique within a company). */
function randomColor(): string {
  return `#${Math.floor(Math.random() * 0xffffff).toString(16).padStart(6, "0")}`;
}

function initialValues(queue: QueueRow | null): QueueValues {
  return {
    name: queue?.name ?? "",
    color: queue?.color ?? randomColor(),
    prioridade: queue ? String(queue.prioridade) : "",
    greetingMessage: queue?.greetingMessage ?? "",
    outOfHoursMessage: queue?.outOfHoursMessage ?? "",
    isChatbot: queue?.isChatbot ?? false,
    ativarRoteador: queue?.ativarRoteador ?? false,
    tempoRoteador: queue?.tempoRoteador ?? 0,
    typeChatbot: queue?.typeChatbot ?? "",
    n8n: queue?.n8n ?? "",
    n8nId: queue?.n8nId ?? "",
    workspaceTypebot: queue?.workspaceTypebot ?? "",
    typebotId: queue?.typebotId ?? "",
    resetChatbotMsg: queue?.resetChatbotMsg ?? false,
    schedules: queue?.schedules.length ? queue.schedules : DEFAULT_SCHEDULES,
    lunchHour: queue?.lunchHour ?? DEFAULT_LUNCH,
  };
}

/** A save refused for a used colour shows the translated reason under the colour field. */
function explainColor(error: unknown): unknown {
  if (error instanceof ApiError && error.code === "ERR_QUEUE_COLOR_ALREADY_EXISTS") {
    const key = "backendErrors.ERR_QUEUE_COLOR_ALREADY_EXISTS";
    return Object.assign(error, { body: { ...(error.body as object), fields: { color: hasText(key) ? t(key) : error.code } } });
  }
  return error;
}

/** Props of QueueDialog. */
export interface QueueDialogProps extends RecordDialogProps<QueueRow> {
  /** The company's queues (targets of the bot's queue options). */
  queues: QueueRow[];
  /** Whether the company's scheduleType is `queue` (the hours tab shows). */
  perQueueHours: boolean;
  /** The user of the page (the bot flow's live channel). */
  viewer: LiveViewer | null;
}

/** Add or edit one queue. */
export function QueueDialog({ row: queue, queues, perQueueHours, viewer, onClose, onSaved }: QueueDialogProps) {
  const [tab, setTab] = useState<Tab>("data");
  const [submits, setSubmits] = useState(0);
  // The queue as saved: a new one gets it when "Chatbot" is ticked (see below), and the
  // dialog stays open on the bot-menu editor instead of closing.
  const [current, setCurrent] = useState<QueueRow | null>(queue);
  const stayOpen = useRef(false);
  const form = useSchemaForm<QueueValues>({
    schema: "QueueInput",
    initial: initialValues(queue),
    onSubmit: async (v) => {
      try {
        const saved = await saveRecord<QueueRow>("/queue", current, v);
        onSaved(saved);
        showToast("success", t("queues.saved"));
        // A new chatbot queue goes on to its bot-menu editor rather than closing.
        if (stayOpen.current || (!current && v.isChatbot)) {
          stayOpen.current = false;
          setCurrent(saved);
          setTab("bot");
          return;
        }
        onClose();
      } catch (error) {
        throw explainColor(error);
      }
    },
  });
  useEffect(() => {
    const target = tabOf(form.errors, perQueueHours);
    if (target) setTab(target);
  }, [submits]);
  const dialogForm = {
    ...form,
    submit: async (event?: FormEvent) => {
      await form.submit(event);
      stayOpen.current = false;
      setSubmits((n) => n + 1);
    },
  };
  // #41: ticking "Chatbot" on a new queue showed nothing; the bot's options belong to a saved
  // queue (spec 001 §2.15: 'Fluxo do Bot' only for saved queues), so the tick saves the queue
  // (its fields checked as by Salvar) and opens the editor in place.
  useEffect(() => {
    if (!form.values.isChatbot || current) return;
    stayOpen.current = true;
    void dialogForm.submit();
  }, [form.values.isChatbot]);
  const routerChoices = ROUTER_MINUTES.map((n) => ({ value: n as number, label: n === 0 ? t("queues.routerOff") : t("queues.minutes", { n }) }));
  // "ai" (the AI module answering, issue #20) only for a plan with useAI, or a queue already set so.
  const session = useSession();
  const aiOn = session.status === "ready" && planHas(session.user, "useAI");
  const botChoices = CHATBOT_TYPES.filter((v) => v !== "ai" || aiOn || queue?.typeChatbot === "ai").map((v) => ({
    value: v as string,
    label: v === "" ? t("queues.typeNone") : v === "n8n" ? "n8n" : v === "ai" ? t("aiModule.queueType") : "Typebot",
  }));

  return (
    <RecordDialog form={dialogForm} title={t(current ? "queues.edit" : "queues.add")} onClose={onClose} wide testId="queue-save">
      <Tabs.Root value={tab} onValueChange={(v) => setTab(v as Tab)} className="form-full queue-tabs">
        <Tabs.List className="queue-tab-list" aria-label={t(current ? "queues.edit" : "queues.add")}>
          <Tabs.Trigger value="data" className="queue-tab">{t("queues.tabData")}</Tabs.Trigger>
          {perQueueHours && <Tabs.Trigger value="schedule" className="queue-tab">{t("queues.tabSchedule")}</Tabs.Trigger>}
          <Tabs.Trigger value="integrations" className="queue-tab">{t("queues.tabIntegrations")}</Tabs.Trigger>
          {current && <Tabs.Trigger value="bot" className="queue-tab">{t("queues.tabBot")}</Tabs.Trigger>}
        </Tabs.List>
        <Tabs.Content value="data" className="form-grid queue-tab-body">
          <TextField form={form} name="name" label={t("queues.name")} autoFocus />
          <div className="queue-color">
            <input
              type="color"
              className="queue-color-picker"
              aria-label={t("queues.colorPicker")}
              value={/^#[0-9a-f]{6}$/i.test(form.values.color) ? form.values.color : "#000000"}
              onChange={(e) => form.set("color", e.target.value)}
              disabled={form.busy}
            />
            <TextField form={form} name="color" label={t("queues.color")} />
          </div>
          <TextField form={form} name="prioridade" label={t("queues.priority")} type="number" />
          <SelectField form={form} name="tempoRoteador" label={t("queues.routerTime")} options={routerChoices} />
          <div className="form-full"><TextField form={form} name="greetingMessage" label={t("queues.greeting")} rows={4} variables /></div>
          <div className="form-full"><TextField form={form} name="outOfHoursMessage" label={t("queues.outOfHours")} rows={4} variables /></div>
          <CheckField form={form} name="ativarRoteador" label={t("queues.router")} />
          <CheckField form={form} name="isChatbot" label={t("queues.isChatbot")} />
        </Tabs.Content>
        {perQueueHours && (
          <Tabs.Content value="schedule" className="queue-tab-body">
            <ScheduleTab form={form} />
          </Tabs.Content>
        )}
        <Tabs.Content value="integrations" className="form-grid queue-tab-body">
          <SelectField
            form={form}
            name="typeChatbot"
            label={t("queues.typeChatbot")}
            options={botChoices}
            hint={form.values.typeChatbot === "ai" ? t("aiModule.queueHint") : undefined}
          />
          <CheckField form={form} name="resetChatbotMsg" label={t("queues.resetChatbotMsg")} />
          <IntegrationFields form={form} />
        </Tabs.Content>
        {current && (
          <Tabs.Content value="bot" className="queue-tab-body">
            <BotTree queueId={current.id} viewer={viewer} queues={queues} />
          </Tabs.Content>
        )}
      </Tabs.Root>
    </RecordDialog>
  );
}
