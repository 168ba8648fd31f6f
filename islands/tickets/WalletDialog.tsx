/**
 * 'Carteira do cliente' from the ticket options (spec 000 §2, §5, §6): whose wallet the
 * ticket's contact is in, and a change through PUT /contacts/{id} `walleteUserId`. Admins
 * (wallet:fullUserList) pick any user; others may only put the contact in their own wallet or
 * take it out of it (the server refuses a contact in another user's wallet with its text).
 */
import { useEffect, useState } from "react";
import { api, get } from "../lib/api.ts";
import { t } from "../lib/i18n.ts";
import { allowed, type SessionUser } from "../lib/session.ts";
import { showToast, toastError } from "../lib/toast.ts";
import { useBusy } from "../lib/use_busy.ts";
import { DialogFooter } from "../ui/DialogFooter.tsx";
import { Modal } from "../ui/Modal.tsx";
import { Skeleton } from "../ui/States.tsx";
import type { Option, TicketItem } from "./types.ts";
import { useOptions } from "../ui/use_options.ts";

/** Props of WalletDialog. */
export interface WalletDialogProps {
  user: SessionUser;
  ticket: TicketItem;
  onClose: () => void;
}

/** The wallet owner choice of the ticket's contact. */
export function WalletDialog({ user, ticket, onClose }: WalletDialogProps) {
  const full = allowed(user, "wallet:fullUserList");
  const listed = useOptions(full ? "/users/list" : null);
  const users: Option[] = full ? listed : [{ id: user.id, name: user.name }];
  const [owner, setOwner] = useState<number | "" | null>(null);
  const { busy, run } = useBusy();
  useEffect(() => {
    let live = true;
    get<{ walleteUserId: number | null }>(`/contacts/${ticket.contactId}`).then(
      (c) => live && setOwner(c.walleteUserId ?? ""),
      (error) => live && (toastError(error?.body ?? error), setOwner("")),
    );
    return () => {
      live = false;
    };
  }, [ticket.contactId]);

  function save() {
    if (owner === null) return;
    return run(async () => {
      await api("PUT", `/contacts/${ticket.contactId}`, { walleteUserId: owner === "" ? null : owner });
      showToast("success", t("wallet.saved"));
      onClose();
    });
  }

  return (
    <Modal
      open
      onOpenChange={(open) => !open && onClose()}
      title={t("tickets.wallet")}
      footer={<DialogFooter onCancel={onClose} onSubmit={save} disabled={busy || owner === null} testId="wallet-save" />}
    >
      <p className="muted">{ticket.contact?.name}</p>
      {owner === null ? <Skeleton rows={1} /> : (
        <label className="field">
          <span>{t("wallet.owner")}</span>
          <select value={owner} onChange={(e) => setOwner(e.target.value ? Number(e.target.value) : "")} data-testid="wallet-owner">
            <option value="">{t("wallet.none")}</option>
            {owner !== "" && !users.some((u) => u.id === owner) && <option value={owner}>{t("wallet.otherUser")}</option>}
            {users.map((u) => <option key={u.id} value={u.id}>{u.name}</option>)}
          </select>
        </label>
      )}
    </Modal>
  );
}
