/**
 * 'Adicionar a carteira' (spec 001 §2.14, §6; admin only): puts the chosen contacts (a
 * selection, or one row's 'Atribuir usuário') in one user's wallet, or takes them out with
 * 'Nenhuma carteira', through PUT /wallets/contacts.
 */
import { useState } from "react";
import { api } from "../lib/api.ts";
import { t } from "../lib/i18n.ts";
import { showToast } from "../lib/toast.ts";
import { useBusy } from "../lib/use_busy.ts";
import { DialogFooter } from "../ui/DialogFooter.tsx";
import { Modal } from "../ui/Modal.tsx";

/** Props of WalletDialog. */
export interface WalletDialogProps {
  contactIds: number[];
  /** The owner to preselect (a single contact's current one). */
  current: number | null;
  users: { id: number; name: string }[];
  onClose: () => void;
  onSaved: (walleteUserId: number | null) => void;
}

/** The user choice and the save. */
export function WalletDialog({ contactIds, current, users, onClose, onSaved }: WalletDialogProps) {
  const [owner, setOwner] = useState<number | null>(current);
  const { busy, run } = useBusy();

  function save() {
    return run(async () => {
      await api("PUT", "/wallets/contacts", { contactIds, walleteUserId: owner });
      onSaved(owner);
      showToast("success", t("contacts.walletSaved"));
      onClose();
    });
  }

  return (
    <Modal
      open
      onOpenChange={(o) => !o && !busy && onClose()}
      title={t("contacts.addToWallet")}
      footer={<DialogFooter onCancel={onClose} onSubmit={save} disabled={busy} testId="wallet-save" />}
    >
      <p className="field-hint">{t("contacts.walletFor", { n: contactIds.length })}</p>
      <label className="field">
        <span>{t("contacts.walletUser")}</span>
        <select
          className="input"
          value={owner ?? ""}
          onChange={(e) => setOwner(e.target.value ? Number(e.target.value) : null)}
          data-testid="wallet-owner"
        >
          <option value="">{t("contacts.walletNone")}</option>
          {users.map((u) => <option key={u.id} value={u.id}>{u.name}</option>)}
        </select>
      </label>
    </Modal>
  );
}
