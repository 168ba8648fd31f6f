/**
 * The export dialog (spec 001 §2.14): tag and queue filters, hidden when specific contacts
 * are selected (then exactly those are exported); 'Exportar' downloads contacts.csv.
 */
import { type FormEvent, useId, useState } from "react";
import { t } from "../lib/i18n.ts";
import { showToast } from "../lib/toast.ts";
import { useBusy } from "../lib/use_busy.ts";
import { DialogFooter } from "../ui/DialogFooter.tsx";
import { Modal } from "../ui/Modal.tsx";
import { useOptions } from "../ui/use_options.ts";
import { exportContacts } from "./export_file.ts";

/** Props of ExportDialog. */
export interface ExportDialogProps {
  /** The selected contacts' ids; empty means "filter by tags and queues". */
  contactIds: number[];
  onClose: () => void;
}

/** The filters and the download. */
export function ExportDialog({ contactIds, onClose }: ExportDialogProps) {
  const id = useId();
  const selected = contactIds.length > 0;
  const tags = useOptions(selected ? null : "/tags/list");
  const queues = useOptions(selected ? null : "/queue");
  const [tagIds, setTagIds] = useState<number[]>([]);
  const [queueIds, setQueueIds] = useState<number[]>([]);
  const { busy, run } = useBusy();

  function submit(event: FormEvent) {
    event.preventDefault();
    run(async () => {
      await exportContacts(selected ? { tags: [], queueIds: [], contactIds } : { tags: tagIds, queueIds, contactIds: [] });
      showToast("success", t("contacts.exported"));
      onClose();
    });
  }

  return (
    <Modal
      open
      onOpenChange={(o) => !o && !busy && onClose()}
      title={t("contacts.exportTitle")}
      footer={<DialogFooter onCancel={onClose} form={id} submitLabel={t("contacts.exportSend")} disabled={busy} testId="export-send" />}
    >
      <form id={id} onSubmit={submit} noValidate>
        {selected ? <p>{t("contacts.exportSelected", { n: contactIds.length })}</p> : (
          <>
            <p className="field-hint">{t("contacts.exportAllHint")}</p>
            <PickList label={t("contacts.exportTags")} options={tags} value={tagIds} onChange={setTagIds} />
            <PickList label={t("contacts.exportQueues")} options={queues} value={queueIds} onChange={setQueueIds} />
          </>
        )}
      </form>
    </Modal>
  );
}

/** A group of checkboxes over named records. */
function PickList({ label, options, value, onChange }: { label: string; options: { id: number; name: string }[]; value: number[]; onChange: (ids: number[]) => void }) {
  return (
    <fieldset className="field check-list">
      <legend>{label}</legend>
      {options.length === 0 && <span className="field-hint">{t("common.none")}</span>}
      {options.map((o) => (
        <label key={o.id} className="check-item">
          <input
            type="checkbox"
            checked={value.includes(o.id)}
            onChange={(e) => onChange(e.target.checked ? [...value, o.id] : value.filter((x) => x !== o.id))}
          />
          {o.name}
        </label>
      ))}
    </fieldset>
  );
}
