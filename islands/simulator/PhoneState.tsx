/**
 * The simulated phone's connection, in words: connected, waiting for its QR code to be read
 * (the code, and the button that reads it with this phone), or offline (the button that
 * brings it back); messages written meanwhile wait on the phone and are counted.
 */
import { useEffect, useState } from "react";
import { QrCode, Signal, WifiOff } from "lucide-react";
import { api } from "../lib/api.ts";
import { t } from "../lib/i18n.ts";
import { toastError } from "../lib/toast.ts";
import { qrSvg } from "../connections/QrCodeDialog.tsx";
import type { PhoneInfo } from "./types.ts";

/** Props of PhoneState. */
export interface PhoneStateProps {
  phone: PhoneInfo;
  onChanged: () => void;
}

/** The state line; see the module doc. */
export function PhoneState({ phone, onChanged }: PhoneStateProps) {
  const [busy, setBusy] = useState(false);
  const [svg, setSvg] = useState<string | null>(null);
  useEffect(() => {
    setSvg(null);
    if (!phone.qrcode) return;
    let live = true;
    qrSvg(phone.qrcode).then((markup) => live && setSvg(markup), () => {});
    return () => {
      live = false;
    };
  }, [phone.qrcode]);

  const call = async (action: "scan" | "disconnect") => {
    setBusy(true);
    try {
      await api("POST", `/simulator/${phone.id}/${action}`);
      onChanged();
    } catch (error) {
      toastError((error as { body?: unknown }).body ?? error);
    } finally {
      setBusy(false);
    }
  };
  const state = phone.connected ? "connected" : phone.qrcode ? "qrcode" : "offline";
  const Icon = state === "connected" ? Signal : state === "qrcode" ? QrCode : WifiOff;
  return (
    <div className="phone-state" data-state={state} data-testid="phone-state">
      <span className="phone-state-text" role="status">
        <Icon size={18} aria-hidden="true" />
        <strong>{phone.name}</strong> · {t(`simulator.status.${state}`)}
        {phone.pending > 0 && <> · {t("simulator.pending", { count: phone.pending })}</>}
      </span>
      {svg && <div className="qr-code phone-qr" role="img" aria-label={t("connections.showQr")} dangerouslySetInnerHTML={{ __html: svg }} />}
      {state === "connected"
        ? <button type="button" className="btn btn-small" disabled={busy} onClick={() => call("disconnect")}>{t("simulator.disconnect")}</button>
        : (
          <button type="button" className="btn btn-small btn-primary" disabled={busy} onClick={() => call("scan")}>
            {t(state === "qrcode" ? "simulator.scan" : "simulator.reconnect")}
          </button>
        )}
    </div>
  );
}
