/**
 * The session events of the company (`company-{id}-whatsappSession`, spec 001 §4, §7):
 * `{ action: "update", session: { id, status, statusEvo, qrcode, qrcodeEvo, … }, expired?,
 * new?, success? }`. Each one patches its row (status, QR, number, last update) and its flags
 * raise the spec's toasts: 'QRcode expirado', 'WhatsApp desconectado e novo QRcode gerado',
 * 'WhatsApp conectado com sucesso!'. A session of a connection the list does not hold yet is
 * skipped: the record's own create event brings the whole row.
 */
import { useEffect, useRef } from "react";
import { t } from "../lib/i18n.ts";
import { channelName, onChannel, startSocket } from "../lib/socket.ts";
import { showToast } from "../lib/toast.ts";
import type { LiveViewer } from "../ui/use_live_rows.ts";
import type { PagedList } from "../ui/use_paged_list.ts";
import type { ConnectionRow } from "./rows.ts";

/** One whatsappSession event. */
interface SessionEvent {
  action?: string;
  session?: Partial<ConnectionRow> & { id: number };
  expired?: boolean;
  new?: boolean;
  success?: boolean;
}

/** Applies the session events to `list` while the page is open. */
export function useSessionEvents(viewer: LiveViewer | null, list: PagedList<ConnectionRow>): void {
  const ref = useRef(list);
  ref.current = list;
  useEffect(() => {
    if (!viewer) return;
    startSocket(viewer.companyId, viewer.id);
    return onChannel(channelName(viewer.companyId, "whatsappSession"), (data) => {
      const event = data as SessionEvent;
      const session = event.session;
      if (event.action !== "update" || !session || typeof session.id !== "number") return;
      const current = ref.current;
      if (current.rows.some((r) => r.id === session.id)) current.upsert(session as ConnectionRow);
      if (event.expired) showToast("warning", t("connections.qrExpired"));
      if (event.new) showToast("warning", t("connections.qrRenewed"));
      if (event.success) showToast("success", t("connections.connected"));
    });
  }, [viewer?.id, viewer?.companyId]);
}
