/**
 * 'Oportunidades' from the ticket options (spec 000 §2, §7; spec 002 §2.11: an opportunity
 * has a name): edits the ticket's opportunity when it has one (GET and PUT
 * /oportunidade/{id}), else saves a new one (POST /oportunidade); name 2 to 50 characters.
 */
import { type FormEvent, useEffect, useState } from "react";
import { api, ApiError, get } from "../lib/api.ts";
import { t } from "../lib/i18n.ts";
import { showToast, toastError } from "../lib/toast.ts";
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
  const id = ticket.oportunidadeId ?? null;
  const [name, setName] = useState<string | null>(id === null ? "" : null);
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (id === null) return;
    get<{ name: string }>(`/oportunidade/${id}`).then((o) => setName(o.name), () => setName(""));
  }, [id]);

  async function save(event?: FormEvent) {
    event?.preventDefault();
    const value = (name ?? "").trim();
    const invalid = value.length === 0 ? t("contactForm.required") : value.length < 2 ? t("contactForm.tooShort") : value.length > 50 ? t("contactForm.tooLong") : "";
    setError(invalid);
    if (invalid) return;
    setBusy(true);
    try {
      await api(id === null ? "POST" : "PUT", id === null ? "/oportunidade" : `/oportunidade/${id}`, { name: value });
      showToast("success", t("opportunity.saved"));
      onClose();
    } catch (error) {
      const field = error instanceof ApiError ? (error.body as { fields?: { name?: string } })?.fields?.name : undefined;
      if (field) setError(field);
      else toastError(error instanceof ApiError ? error.body : error);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal
      open
      onOpenChange={(open) => !open && onClose()}
      title={t(id === null ? "opportunity.new" : "opportunity.edit")}
      footer={
        <>
          <button type="button" className="btn" onClick={onClose}>{t("common.cancel")}</button>
          <button type="submit" form="opportunity-form" className="btn btn-primary" disabled={busy || name === null} data-testid="opportunity-save">{t("common.save")}</button>
        </>
      }
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
