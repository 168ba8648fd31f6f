/**
 * 'Oportunidades' from the ticket options (spec 000 §2, §7; spec 002 §2.11: an opportunity
 * has a name): edits the ticket's opportunity when it has one (GET and PUT
 * /oportunidade/{id}), else saves a new one (POST /oportunidade) and links the ticket to it
 * (PUT /tickets/{id} `oportunidadeId`, which /oportunidades counts); name 2 to 50 characters.
 * A linked opportunity deleted since is replaced by a new one.
 */
import { type FormEvent, useEffect, useState } from "react";
import { api, get } from "../lib/api.ts";
import { t } from "../lib/i18n.ts";
import { showToast } from "../lib/toast.ts";
import { useBusy } from "../lib/use_busy.ts";
import { DialogFooter } from "../ui/DialogFooter.tsx";
import { Modal } from "../ui/Modal.tsx";
import { Skeleton } from "../ui/States.tsx";
import type { TicketItem } from "./types.ts";

/** Props of OpportunityDialog. */
export interface OpportunityDialogProps {
  ticket: TicketItem;
  onClose: () => void;
}

/** The opportunity form of a ticket. */
export function OpportunityDialog({ ticket, onClose }: OpportunityDialogProps) {
  const [id, setId] = useState(ticket.oportunidadeId ?? null);
  const [name, setName] = useState<string | null>(id === null ? "" : null);
  const [error, setError] = useState("");
  const { busy, run } = useBusy();
  useEffect(() => {
    if (id === null) return;
    get<{ name: string }>(`/oportunidade/${id}`).then((o) => setName(o.name), () => {
      setId(null);
      setName("");
    });
  }, []);

  async function save(event?: FormEvent) {
    event?.preventDefault();
    const value = (name ?? "").trim();
    const invalid = value.length === 0 ? t("contactForm.required") : value.length < 2 ? t("contactForm.tooShort") : value.length > 50 ? t("contactForm.tooLong") : "";
    setError(invalid);
    if (invalid) return;
    await run(async () => {
      if (id !== null) await api("PUT", `/oportunidade/${id}`, { name: value });
      else {
        const created = await api<{ id: number }>("POST", "/oportunidade", { name: value });
        await api("PUT", `/tickets/${ticket.id}`, { oportunidadeId: created.id });
      }
      showToast("success", t("opportunity.saved"));
      onClose();
    }, (fields) => {
      if (fields.name) setError(fields.name);
      return !!fields.name;
    });
  }

  return (
    <Modal
      open
      onOpenChange={(open) => !open && onClose()}
      title={t(id === null ? "opportunity.new" : "opportunity.edit")}
      footer={<DialogFooter onCancel={onClose} form="opportunity-form" disabled={busy || name === null} testId="opportunity-save" />}
    >
      {name === null ? <Skeleton rows={1} /> : (
        <form id="opportunity-form" onSubmit={save} noValidate>
          <label className="field">
            <span>{t("opportunity.name")}</span>
            <input type="text" value={name} autoFocus onChange={(e) => {
              setName(e.target.value);
              setError("");
            }} aria-invalid={!!error} data-testid="opportunity-name" />
            {error && <small className="field-error">{error}</small>}
          </label>
        </form>
      )}
    </Modal>
  );
}
