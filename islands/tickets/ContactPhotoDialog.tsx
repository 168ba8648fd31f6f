/**
 * The full-size profile photo of a list item's contact (spec 000 §2 "Clicking the avatar
 * loads the full-size profile photo in a dialog"): GET /contacts/photo asks the ticket's
 * connection for the current picture (the stored one when it cannot); initials when none.
 */
import { useEffect, useState } from "react";
import { get, query } from "../lib/api.ts";
import { t } from "../lib/i18n.ts";
import { Modal } from "../ui/Modal.tsx";
import { Skeleton } from "../ui/States.tsx";
import { initials } from "./initials.ts";
import type { TicketItem } from "./types.ts";

/** Props of ContactPhotoDialog. */
export interface ContactPhotoDialogProps {
  ticket: TicketItem;
  onClose: () => void;
}

/** The photo dialog; loads the picture when it opens. */
export function ContactPhotoDialog({ ticket, onClose }: ContactPhotoDialogProps) {
  const name = ticket.contact?.name ?? "";
  const number = ticket.contact?.number ?? "";
  const [url, setUrl] = useState<string | null>(number ? null : ticket.contact?.profilePicUrl ?? "");
  useEffect(() => {
    if (!number) return;
    let live = true;
    const params = query({ number, whatsappId: ticket.whatsappId ?? undefined });
    get<{ profilePicUrl: string }>(`/contacts/photo${params}`).then(
      (r) => live && setUrl(r.profilePicUrl || ticket.contact?.profilePicUrl || ""),
      () => live && setUrl(ticket.contact?.profilePicUrl ?? ""),
    );
    return () => {
      live = false;
    };
  }, [number, ticket.whatsappId]);
  return (
    <Modal open onOpenChange={(open) => !open && onClose()} title={name || t("tickets.avatar")}>
      <div className="photo-box" data-testid="photo-dialog">
        {url === null
          ? <Skeleton rows={3} />
          : url
          ? <img className="photo-full" src={url} alt={name} />
          : <div className="avatar avatar-large"><span>{initials(name)}</span></div>}
      </div>
    </Modal>
  );
}
