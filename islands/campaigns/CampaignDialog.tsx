/**
 * The campaign dialog (spec 002 §2.3, §5): name, confirmation on/off, contact list, tag,
 * queue, group list (one of the company's WhatsApp groups, whose members the campaign also
 * goes to: a list or a group is needed, domain/campaign.ts), open ticket and its status (and user when open), scheduled date-time, the
 * connections in rotation, five message tabs (Msg. 1 to Msg. 5) each with its confirmation
 * message when confirmation is on, and the attachment. Values are checked in the browser by
 * the server's own CampaignInput (its §5 texts); the submit waits the spec's 400 ms.
 *
 * Read-only unless the domain's isEditable says so (the stricter reading of §4: INATIVA,
 * CANCELADA, or PROGRAMADA more than 1 h away): every field is disabled and there is no save.
 * A new attachment is uploaded after the save (the campaign needs an id first); removing one
 * is immediate, like the announcements dialog.
 */
import { type ReactNode, useEffect, useRef, useState } from "react";
import { Tabs } from "radix-ui";
import { CAMPAIGN_TEXTS, isEditable, MESSAGE_SLOTS } from "../../domain/campaign.ts";
import { api } from "../lib/api.ts";
import { t } from "../lib/i18n.ts";
import { showToast, toastError } from "../lib/toast.ts";
import { CheckField, CheckListField, type SchemaForm, SelectField, TextField } from "../ui/form.tsx";
import { RecordDialog, type RecordDialogProps, useRecordForm } from "../ui/record_dialogs.tsx";
import { Modal } from "../ui/Modal.tsx";
import { useOptions } from "../ui/use_options.ts";
import { type CampaignMessages, type CampaignRow, scheduledMs } from "./types.ts";

/** The form's values (CampaignInput's input; scheduledAt as a datetime-local text). */
interface CampaignValues extends CampaignMessages, Record<string, unknown> {
  name: string;
  status: "PROGRAMADA" | "INATIVA";
  confirmation: boolean;
  contactListId: number | null;
  groupListId: number | null;
  whatsappIds: number[];
  tagListId: number | null;
  queueId: number | null;
  openTicket: boolean;
  statusTicket: "pending" | "open" | "closed";
  userId: number | null;
  scheduledAt: string;
}

/** `ms` as the value of a datetime-local input, in the browser's zone. */
function localInput(ms: number): string {
  const d = new Date(ms - new Date(ms).getTimezoneOffset() * 60_000);
  return d.toISOString().slice(0, 16);
}

function initialValues(c: CampaignRow | null): CampaignValues {
  const at = c ? scheduledMs(c) : null;
  return {
    name: c?.name ?? "",
    status: c?.status === "INATIVA" ? "INATIVA" : "PROGRAMADA",
    confirmation: c?.confirmation ?? false,
    contactListId: c?.contactListId ?? null,
    groupListId: c?.groupListId ?? null,
    whatsappIds: c?.whatsappIds ?? [],
    tagListId: c?.tagListId ?? c?.tagId ?? null,
    queueId: c?.queueId ?? null,
    openTicket: c?.openTicket ?? false,
    statusTicket: c?.statusTicket ?? "pending",
    userId: c?.userId ?? null,
    // A new campaign starts two hours ahead, so it is still editable after saving.
    scheduledAt: localInput(at ?? Date.now() + 2 * 3600_000),
    message1: c?.message1 ?? "",
    message2: c?.message2 ?? "",
    message3: c?.message3 ?? "",
    message4: c?.message4 ?? "",
    message5: c?.message5 ?? "",
    confirmationMessage1: c?.confirmationMessage1 ?? "",
    confirmationMessage2: c?.confirmationMessage2 ?? "",
    confirmationMessage3: c?.confirmationMessage3 ?? "",
    confirmationMessage4: c?.confirmationMessage4 ?? "",
    confirmationMessage5: c?.confirmationMessage5 ?? "",
  };
}

/** The request body: §5 says empty strings go as null and the connections as whatsappId "1,2". */
function toBody(v: CampaignValues) {
  const body: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(v)) body[key] = value === "" ? null : value;
  // An exact instant (ISO with zone) rather than §5's zone-less text, which the server would
  // read in its own zone, not the browser's.
  body.scheduledAt = new Date(v.scheduledAt).toISOString();
  body.whatsappId = v.whatsappIds.join(",");
  body.tagId = v.tagListId;
  return body;
}

/** Props of CampaignDialog: the campaign opened, or null to create one. */
export type CampaignDialogProps = RecordDialogProps<CampaignRow>;

/** Adds, edits or shows one campaign; see the module doc. */
export function CampaignDialog({ row: campaign, onClose, onSaved }: CampaignDialogProps) {
  const editable = !campaign || isEditable({ status: campaign.status, scheduledAt: scheduledMs(campaign) }, Date.now());
  const file = useRef<File | null>(null);
  const [fileName, setFileName] = useState<string | null>(null);
  const [mediaName, setMediaName] = useState<string | null>(campaign?.mediaName ?? null);
  const [tab, setTab] = useState("1");
  const form = useRecordForm<CampaignValues, CampaignRow>({
    schema: "CampaignInput",
    initial: initialValues(campaign),
    delayMs: 400,
    // The schema's cross-field rules run only once every field parses; shown at once here.
    check: (v) => ({
      ...(v.contactListId === null && v.groupListId === null ? { contactListId: CAMPAIGN_TEXTS.contactListRequired } : {}),
      ...(v.whatsappIds.length === 0 ? { whatsappIds: CAMPAIGN_TEXTS.connectionRequired } : {}),
      ...(MESSAGE_SLOTS.every((n) => !String(v[`message${n}`]).trim()) ? { message1: CAMPAIGN_TEXTS.messageRequired } : {}),
    }),
    path: "/campaigns",
    row: campaign,
    body: toBody,
    // The file chosen goes up once the campaign exists.
    then: async (saved) => {
      if (!file.current) return saved;
      const body = new FormData();
      body.set("file", file.current);
      return await api<CampaignRow>("POST", `/campaigns/${saved.id}/media-upload`, body);
    },
    savedText: t("campaigns.saved"),
    onSaved,
    onClose,
  });

  async function removeMedia() {
    if (!campaign) return;
    try {
      const saved = await api<CampaignRow>("DELETE", `/campaigns/${campaign.id}/media-upload`);
      setMediaName(null);
      onSaved(saved);
      showToast("success", t("campaigns.mediaRemoved"));
    } catch (error) {
      toastError((error as { body?: unknown }).body ?? error);
    }
  }

  const fields = (
    <CampaignFields
      form={form}
      disabled={!editable}
      tab={tab}
      onTab={setTab}
      media={
        <div className="field form-full">
          <span className="field-label">{t("campaigns.media")}</span>
          {mediaName && !fileName && (
            <div className="input-with-button">
              <span className="campaign-media-name" data-testid="campaign-media-name">{mediaName}</span>
              {editable && <button type="button" className="btn btn-small" onClick={removeMedia}>{t("campaigns.removeMedia")}</button>}
            </div>
          )}
          {editable && (
            <input
              type="file"
              name="file"
              aria-label={t("campaigns.attach")}
              disabled={form.busy}
              onChange={(e) => {
                file.current = e.target.files?.[0] ?? null;
                setFileName(file.current?.name ?? null);
              }}
            />
          )}
          {fileName && <span className="field-hint">{t("campaigns.mediaAfterSave")}</span>}
        </div>
      }
    />
  );

  if (!editable) {
    return (
      <Modal
        open
        onOpenChange={(o) => !o && onClose()}
        title={t("campaigns.view")}
        wide
        footer={<button type="button" className="btn" onClick={onClose}>{t("common.close")}</button>}
      >
        <p className="field-hint" role="note" data-testid="campaign-readonly">{t("campaigns.readOnly")}</p>
        <div className="form-grid">{fields}</div>
      </Modal>
    );
  }
  return (
    <RecordDialog form={form} title={t(campaign ? "campaigns.edit" : "campaigns.add")} onClose={onClose} wide testId="campaign-save">
      {fields}
    </RecordDialog>
  );
}

type Form = SchemaForm<CampaignValues>;

/** The fields, shared by the editable and the read-only dialog. */
function CampaignFields({ form, disabled, tab, onTab, media }: { form: Form; disabled: boolean; tab: string; onTab: (tab: string) => void; media: ReactNode }) {
  const contactLists = useOptions("/contact-lists/list");
  const groups = useOptions("/contacts/list?isGroup=true");
  const connections = useOptions("/whatsapp");
  const tags = useOptions("/tags/list");
  const queues = useOptions("/queue");
  const users = useOptions(form.values.openTicket && form.values.statusTicket === "open" ? "/users/list" : null);
  const v = form.values;
  const choices = (list: { id: number; name: string }[]) => list.map((o) => ({ value: o.id, label: o.name }));
  const tabHasError = (n: number) => !!(form.errors[`message${n}`] || form.errors[`confirmationMessage${n}`]);
  // A refused save whose message sits in another tab opens that tab, so the text is seen.
  useEffect(() => {
    const wrong = MESSAGE_SLOTS.find(tabHasError);
    if (wrong !== undefined && !tabHasError(Number(tab))) onTab(String(wrong));
  }, [form.errors]);
  return (
    <>
      <TextField form={form} name="name" label={t("campaigns.name")} disabled={disabled} className="form-full" autoFocus={!disabled} />
      <SelectField
        form={form}
        name="confirmation"
        label={t("campaigns.confirmation")}
        disabled={disabled}
        options={[{ value: false, label: t("campaigns.disabled") }, { value: true, label: t("campaigns.enabled") }]}
      />
      <SelectField form={form} name="contactListId" label={t("campaigns.contactList")} disabled={disabled} empty={t("common.select")} options={choices(contactLists)} />
      <SelectField form={form} name="tagListId" label={t("campaigns.tag")} disabled={disabled} empty={t("campaigns.notDefined")} options={choices(tags)} />
      <SelectField form={form} name="queueId" label={t("campaigns.queue")} disabled={disabled} empty={t("campaigns.notDefined")} options={choices(queues)} />
      <SelectField
        form={form}
        name="groupListId"
        label={t("campaigns.groupList")}
        disabled={disabled}
        empty={t("campaigns.notDefined")}
        options={choices(groups)}
        hint={t("campaigns.groupListHint")}
      />
      <TextField form={form} name="scheduledAt" label={t("campaigns.scheduledAt")} type="datetime-local" disabled={disabled} />
      <SelectField
        form={form}
        name="status"
        label={t("campaigns.sendMode")}
        disabled={disabled}
        options={[{ value: "PROGRAMADA", label: t("campaigns.startNow") }, { value: "INATIVA", label: t("campaigns.keepInactive") }]}
      />
      <CheckListField form={form} name="whatsappIds" label={t("campaigns.whatsapps")} disabled={disabled} options={choices(connections)} className="form-full" />
      <CheckField form={form} name="openTicket" label={t("campaigns.openTicket")} disabled={disabled} />
      {v.openTicket && (
        <SelectField
          form={form}
          name="statusTicket"
          label={t("campaigns.statusTicket")}
          disabled={disabled}
          options={(["pending", "open", "closed"] as const).map((s) => ({ value: s, label: t(`campaigns.statusTicket.${s}`) }))}
        />
      )}
      {v.openTicket && v.statusTicket === "open" && (
        <SelectField form={form} name="userId" label={t("campaigns.user")} disabled={disabled} empty={t("campaigns.notDefined")} options={choices(users)} />
      )}
      <Tabs.Root value={tab} onValueChange={onTab} className="form-full queue-tabs">
        <Tabs.List className="queue-tab-list campaign-msg-tabs" aria-label={t("campaigns.message")}>
          {MESSAGE_SLOTS.map((n) => (
            <Tabs.Trigger key={n} value={String(n)} className={tabHasError(n) ? "queue-tab campaign-tab-error" : "queue-tab"}>
              {t("campaigns.msgTab", { n })}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        {MESSAGE_SLOTS.map((n) => (
          <Tabs.Content key={n} value={String(n)} className="queue-tab-body">
            <TextField form={form} name={`message${n}`} label={`${t("campaigns.message")} ${n}`} rows={5} disabled={disabled} hint={t("campaigns.messageHint")} variables />
            {v.confirmation && (
              <TextField form={form} name={`confirmationMessage${n}`} label={`${t("campaigns.confirmationMessage")} ${n}`} rows={3} disabled={disabled} variables />
            )}
          </Tabs.Content>
        ))}
      </Tabs.Root>
      {media}
    </>
  );
}
