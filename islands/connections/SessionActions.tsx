/**
 * A connection's session, per engine (spec 001 §4): the status badge, and the buttons each
 * status offers. DISCONNECTED: a tooltip saying what failed, 'try again' (POST
 * /whatsappsession/{id}) and 'new QR' (PUT); OPENING: a spinner and a disabled 'connecting';
 * qrcode: a button that opens the QR dialog; CONNECTED, PAIRING, TIMEOUT: disconnect (DELETE
 * with `{ lib }`). The row itself changes when the session events arrive, not on the reply.
 */
import { useState } from "react";
import { Tooltip } from "radix-ui";
import { CircleAlert, Link2, LoaderCircle, QrCode, Signal, TimerOff, WifiOff } from "lucide-react";
import type { SessionStatus } from "../../domain/channel.ts";
import { api } from "../lib/api.ts";
import { type LocaleKey, t } from "../lib/i18n.ts";
import { toastError } from "../lib/toast.ts";
import { type ConnectionRow, type SessionLib, sessionOf } from "./rows.ts";

const ICONS = {
  DISCONNECTED: WifiOff,
  OPENING: LoaderCircle,
  qrcode: QrCode,
  PAIRING: Link2,
  CONNECTED: Signal,
  TIMEOUT: TimerOff,
} satisfies Record<SessionStatus, unknown>;

/** The status of one engine: an icon and its name, coloured by how it is doing. */
export function StatusBadge({ status }: { status: SessionStatus }) {
  const Icon = ICONS[status] ?? CircleAlert;
  return (
    <span className="session-status" data-status={status}>
      <Icon size={16} aria-hidden="true" className={status === "OPENING" ? "spin" : undefined} />
      {t(`connections.status.${status}` as LocaleKey)}
    </span>
  );
}

/** Props of SessionActions. */
export interface SessionActionsProps {
  row: ConnectionRow;
  lib: SessionLib;
  onShowQr: (row: ConnectionRow, lib: SessionLib) => void;
}

/** The buttons the engine `lib` of `row` offers in its status. */
export function SessionActions({ row, lib, onShowQr }: SessionActionsProps) {
  const [busy, setBusy] = useState(false);
  const { status } = sessionOf(row, lib);
  const call = async (method: string, body?: unknown) => {
    setBusy(true);
    try {
      await api(method, `/whatsappsession/${row.id}`, body);
    } catch (error) {
      toastError((error as { body?: unknown }).body ?? error);
    } finally {
      setBusy(false);
    }
  };
  switch (status) {
    case "DISCONNECTED":
      return (
        <span className="session-actions">
          <Tooltip.Root>
            <Tooltip.Trigger asChild>
              <button type="button" className="icon-btn icon-danger" aria-label={t("connections.disconnectedTitle")}>
                <CircleAlert size={16} aria-hidden="true" />
              </button>
            </Tooltip.Trigger>
            <Tooltip.Portal>
              <Tooltip.Content className="session-tooltip" side="top" sideOffset={4}>
                <strong>{t("connections.disconnectedTitle")}</strong>
                <span>{t("connections.disconnectedText")}</span>
              </Tooltip.Content>
            </Tooltip.Portal>
          </Tooltip.Root>
          <button type="button" className="btn btn-small" disabled={busy} onClick={() => call("POST")}>{t("connections.tryAgain")}</button>
          <button type="button" className="btn btn-small btn-primary" disabled={busy} onClick={() => call("PUT")}>{t("connections.newQr")}</button>
        </span>
      );
    case "OPENING":
      return (
        <span className="session-actions">
          <LoaderCircle size={16} className="spin" aria-hidden="true" />
          <button type="button" className="btn btn-small" disabled>{t("connections.connecting")}</button>
        </span>
      );
    case "qrcode":
      return (
        <span className="session-actions">
          <button type="button" className="btn btn-small btn-primary" onClick={() => onShowQr(row, lib)}>
            <QrCode size={14} aria-hidden="true" /> {t("connections.showQr")}
          </button>
        </span>
      );
    case "CONNECTED":
    case "PAIRING":
    case "TIMEOUT":
      return (
        <span className="session-actions">
          <button type="button" className="btn btn-small" disabled={busy} onClick={() => call("DELETE", { lib })}>{t("connections.disconnect")}</button>
        </span>
      );
  }
}
