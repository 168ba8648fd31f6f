/**
 * The conversation's short dialogs: transfer (queue required, user optional, user search
 * from 3 characters), resolve (farewell choice; a survey to send required when userRating is on),
 * confirmation (delete), edit message (empty is not sent) and forward (one contact at least).
 */
import { useState } from "react";
import { Star } from "lucide-react";
import { api } from "../lib/api.ts";
import { t } from "../lib/i18n.ts";
import { type SessionUser, settingEnabled } from "../lib/session.ts";
import { showToast, toastError } from "../lib/toast.ts";
import { Modal } from "../ui/Modal.tsx";
import type { Message, Option, TicketItem } from "./types.ts";
import { ContactChecklist, useContactChecks } from "./pickers.tsx";
import { useOptions } from "../ui/use_options.ts";
import { useSearch } from "./use_search.ts";

interface Base {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** Transfer: picks a queue (required) and optionally a user. */
export function TransferDialog({ open, onOpenChange, user, onTransfer }: Base & { user: SessionUser; onTransfer: (queueId: number, userId: number | null) => Promise<void> }) {
  const [queueId, setQueueId] = useState<number | "">("");
  const [userText, setUserText] = useState("");
  const [picked, setPicked] = useState<Option | null>(null);
  const [error, setError] = useState("");
  const queues = useOptions("/queue");
  const users = useSearch("/users/", userText, "users");
  async function submit() {
    if (queueId === "") return setError(t("transfer.queueRequired"));
    await onTransfer(queueId, picked?.id ?? null);
    onOpenChange(false);
  }
  return (
    <Modal open={open} onOpenChange={onOpenChange} title={t("transfer.title")} footer={
      <>
        <button type="button" className="btn" onClick={() => onOpenChange(false)}>{t("common.cancel")}</button>
        <button type="button" className="btn btn-primary" onClick={submit} data-testid="transfer-submit">{t("transfer.submit")}</button>
      </>
    }>
      <label className="field">
        <span>{t("transfer.user")}</span>
        <input type="search" value={picked ? picked.name : userText} onChange={(e) => {
          setPicked(null);
          setUserText(e.target.value);
        }} />
      </label>
      {!picked && users.length > 0 && (
        <ul className="pick-list">
          {users.map((u) => <li key={u.id}><button type="button" className="pick" onClick={() => setPicked(u)}>{u.name}</button></li>)}
        </ul>
      )}
      <label className="field">
        <span>{t("transfer.queue")}</span>
        <select value={queueId} onChange={(e) => {
          setQueueId(e.target.value ? Number(e.target.value) : "");
          setError("");
        }} aria-invalid={!!error} data-testid="transfer-queue">
          <option value="">{t("common.select")}</option>
          {(queues.length ? queues : user.queues).map((q) => <option key={q.id} value={q.id}>{q.name}</option>)}
        </select>
        {error && <small className="field-error">{error}</small>}
      </label>
    </Modal>
  );
}

/**
 * Resolve: with or without farewell. When the company asks for ratings (userRating), the
 * agent first picks which of the company's active surveys goes to the customer
 * (GET /ratings/list); the customer's answer is recorded later (server/ratings).
 */
export function ResolveDialog({ open, onOpenChange, user, onResolve }: Base & { user: SessionUser; onResolve: (farewell: boolean, ratingId: number | null) => Promise<void> }) {
  const ratingOn = settingEnabled(user, "userRating");
  const surveys = useOptions(ratingOn ? "/ratings/list" : null) as Array<Option & { geral?: boolean }>;
  const active = surveys.filter((s) => s.geral !== false);
  const [ratingId, setRatingId] = useState<number | null>(null);
  const [error, setError] = useState("");
  async function resolve(farewell: boolean) {
    if (ratingOn && ratingId === null) return setError(t("rating.required"));
    await onResolve(farewell, ratingId);
    onOpenChange(false);
  }
  return (
    <Modal open={open} onOpenChange={onOpenChange} title={t(ratingOn ? "rating.title" : "resolve.title")} footer={
      <>
        <button type="button" className="btn" onClick={() => resolve(false)} data-testid="resolve-without">{t("resolve.withoutFarewell")}</button>
        <button type="button" className="btn btn-primary" onClick={() => resolve(true)} data-testid="resolve-with">{t("resolve.withFarewell")}</button>
      </>
    }>
      {ratingOn && (
        <fieldset className="field">
          <legend>{t("rating.choose")}</legend>
          {active.length === 0 && <p className="muted">{t("rating.none")}</p>}
          <div className="rating-choices" role="radiogroup" aria-label={t("rating.choose")}>
            {active.map((s) => (
              <label key={s.id} className="check">
                <input type="radio" name="ratingId" checked={ratingId === s.id} onChange={() => {
                  setRatingId(s.id);
                  setError("");
                }} data-testid={`rating-${s.id}`} />
                <Star size={16} aria-hidden="true" /> {s.name}
              </label>
            ))}
          </div>
          {error && <small className="field-error" role="alert">{error}</small>}
        </fieldset>
      )}
      {!ratingOn && <p className="muted">{t("resolve.text")}</p>}
    </Modal>
  );
}

/**
 * "Fechar" on a waiting ticket (#41: it closed at once, with no word): asks first, names the
 * contact, and offers the farewell choice when the company sends one to waiting tickets
 * (setting sendFarewellWaitingTicket); the caller toasts the result.
 */
export function ClosePendingDialog(
  { open, onOpenChange, user, ticket, onClose }: Base & { user: SessionUser; ticket: TicketItem; onClose: (farewell: boolean) => Promise<void> },
) {
  const farewellOn = settingEnabled(user, "sendFarewellWaitingTicket");
  const [busy, setBusy] = useState(false);
  async function close(farewell: boolean) {
    setBusy(true);
    await onClose(farewell);
    setBusy(false);
    onOpenChange(false);
  }
  return (
    <Modal open={open} onOpenChange={onOpenChange} title={t("closePending.title")} footer={
      <>
        <button type="button" className="btn" onClick={() => onOpenChange(false)}>{t("common.cancel")}</button>
        {farewellOn && (
          <button type="button" className="btn" disabled={busy} onClick={() => close(false)} data-testid="close-pending-without">{t("closePending.without")}</button>
        )}
        <button type="button" className="btn btn-primary" disabled={busy} onClick={() => close(true)} data-testid="close-pending-confirm">
          {t(farewellOn ? "closePending.with" : "closePending.confirm")}
        </button>
      </>
    }>
      <p>{t("closePending.text", { name: ticket.contact?.name ?? "" })}</p>
    </Modal>
  );
}

/** The kit's confirmation dialog (spec 001 §8), shared with the inbox. */
export { ConfirmDialog } from "../ui/ConfirmDialog.tsx";

/** Edits the text of a sent message (POST /messages/edit/{id}). */
export function EditMessageDialog({ open, onOpenChange, message }: Base & { message: Message }) {
  const [text, setText] = useState(message.body);
  async function save() {
    if (!text.trim()) return;
    try {
      await api("POST", `/messages/edit/${message.id}`, { body: text.trim() });
      onOpenChange(false);
    } catch (error) {
      toastError((error as { body?: unknown }).body ?? error);
    }
  }
  return (
    <Modal open={open} onOpenChange={onOpenChange} title={t("messages.editTitle")} footer={
      <>
        <button type="button" className="btn" onClick={() => onOpenChange(false)}>{t("common.cancel")}</button>
        <button type="button" className="btn btn-primary" disabled={!text.trim()} onClick={save}>{t("common.save")}</button>
      </>
    }>
      <textarea className="input" rows={4} value={text} onChange={(e) => setText(e.target.value)} aria-label={t("messages.editTitle")} />
    </Modal>
  );
}

/** Forwards a message to contacts found by search (from 3 characters). */
export function ForwardDialog({ open, onOpenChange, message, ticket }: Base & { message: Message; ticket: TicketItem }) {
  const checks = useContactChecks();
  const { picked } = checks;
  async function send() {
    if (picked.length === 0) return showToast("error", t("messages.selectContact"));
    try {
      await api("POST", "/messages/forward/send", { messages: [message.id], contacts: picked.map((c) => c.id), whatsappId: ticket.whatsappId ?? undefined, queue: ticket.queueId });
      onOpenChange(false);
    } catch (error) {
      toastError((error as { body?: unknown }).body ?? error);
    }
  }
  return (
    <Modal open={open} onOpenChange={onOpenChange} title={t("messages.forward")} footer={
      <>
        <button type="button" className="btn" onClick={() => onOpenChange(false)}>{t("common.cancel")}</button>
        <button type="button" className="btn btn-primary" onClick={send}>{t("messages.send")}</button>
      </>
    }>
      <ContactChecklist {...checks} />
      {picked.length > 0 && <p className="muted">{picked.map((p) => p.name).join(", ")}</p>}
    </Modal>
  );
}

/** Sends contact cards into the conversation (POST /messages/sendContact/{ticketId}). */
export function SendContactDialog({ open, onOpenChange, ticketId }: Base & { ticketId: number }) {
  const checks = useContactChecks();
  const { picked } = checks;
  async function send() {
    if (picked.length === 0) return showToast("error", t("messages.selectContact"));
    try {
      await api("POST", `/messages/sendContact/${ticketId}`, { contactsId: picked.map((c) => c.id) });
      onOpenChange(false);
    } catch (error) {
      toastError((error as { body?: unknown }).body ?? error);
    }
  }
  return (
    <Modal open={open} onOpenChange={onOpenChange} title={t("messages.sendContact")} footer={
      <>
        <button type="button" className="btn" onClick={() => onOpenChange(false)}>{t("common.cancel")}</button>
        <button type="button" className="btn btn-primary" onClick={send}>{t("messages.send")}</button>
      </>
    }>
      <ContactChecklist {...checks} />
    </Modal>
  );
}
