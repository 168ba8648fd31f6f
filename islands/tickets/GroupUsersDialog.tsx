/**
 * 'Adicionar usuários ao grupo' (spec 000 §2 ticket options, admin or the ticket's owner, group
 * tickets only): the group's participants from GET /groupUsers?groupId, a contact checklist,
 * and POST /groupUsers { groupId, users } adding the ticked contacts on WhatsApp.
 */
import { useEffect, useState } from "react";
import { api, get } from "../lib/api.ts";
import { t } from "../lib/i18n.ts";
import { showToast, toastError } from "../lib/toast.ts";
import { useBusy } from "../lib/use_busy.ts";
import { DialogFooter } from "../ui/DialogFooter.tsx";
import { Modal } from "../ui/Modal.tsx";
import { ErrorState, Skeleton } from "../ui/States.tsx";
import { ContactChecklist, useContactChecks } from "./pickers.tsx";
import type { TicketItem } from "./types.ts";

/** A participant as GET /groupUsers lists it (id null: a number the company has no contact for). */
interface Participant {
  id: number | null;
  name: string;
  number: string;
}

/** Props of GroupUsersDialog. */
export interface GroupUsersDialogProps {
  ticket: TicketItem;
  onClose: () => void;
}

/** The group's participants and the add-users form. */
export function GroupUsersDialog({ ticket, onClose }: GroupUsersDialogProps) {
  const [members, setMembers] = useState<Participant[] | null>(null);
  const [failed, setFailed] = useState(false);
  const { busy, run } = useBusy();
  const checks = useContactChecks();
  const load = () => {
    setFailed(false);
    get<Participant[]>(`/groupUsers?groupId=${ticket.id}`).then(setMembers, (error) => {
      setFailed(true);
      toastError(error?.body ?? error);
    });
  };
  useEffect(load, [ticket.id]);

  async function add() {
    if (checks.picked.length === 0) return showToast("error", t("messages.selectContact"));
    await run(async () => {
      const users = checks.picked.map((c) => c.id);
      setMembers(await api<Participant[]>("POST", "/groupUsers", { groupId: ticket.id, users }));
      checks.setPicked([]);
      showToast("success", t("groupUsers.added"));
    });
  }

  return (
    <Modal
      open
      onOpenChange={(open) => !open && onClose()}
      title={t("groupUsers.title")}
      footer={
        <DialogFooter
          onCancel={onClose}
          cancelLabel={t("common.close")}
          submitLabel={t("groupUsers.add")}
          onSubmit={add}
          disabled={busy}
          testId="group-users-add"
        />
      }
    >
      <h3 className="dialog-subtitle">{t("groupUsers.members")}</h3>
      {failed ? <ErrorState onRetry={load} /> : members === null ? <Skeleton rows={3} /> : (
        <ul className="group-members" data-testid="group-members">
          {members.map((m) => (
            <li key={m.id ?? m.number}>
              {m.name} <span className="muted">{m.number}</span>
            </li>
          ))}
        </ul>
      )}
      <h3 className="dialog-subtitle">{t("groupUsers.addTitle")}</h3>
      <ContactChecklist {...checks} />
    </Modal>
  );
}
