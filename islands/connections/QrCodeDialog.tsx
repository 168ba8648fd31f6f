/**
 * The QR-code dialog of spec 001 §2.3, one per engine: the code at 256 px, or 'Waiting for QR
 * Code' while there is none. It reads the live row, so each session event redraws it, and it
 * closes itself when a code it showed becomes empty (scanned, expired, stopped). The QR
 * renderer (`qrcode`, ≈ 10 KB gzip) is imported when the dialog first draws a code, so the
 * page's first load does not carry it.
 */
import { useEffect, useRef, useState } from "react";
import { t } from "../lib/i18n.ts";
import { Modal } from "../ui/Modal.tsx";
import { type ConnectionRow, type SessionLib, sessionOf } from "./rows.ts";

/** The spec's QR size in pixels. */
const QR_SIZE = 256;

/** SVG markup of `text` as a QR code (the library generates it: no user markup goes in); the simulated phone draws its QR with it too. */
export async function qrSvg(text: string): Promise<string> {
  const QRCode = (await import("qrcode")).default;
  return await QRCode.toString(text, { type: "svg", width: QR_SIZE, margin: 1 });
}

/** Props of QrCodeDialog. */
export interface QrCodeDialogProps {
  /** The connection as the list holds it now (null once deleted). */
  row: ConnectionRow | null;
  lib: SessionLib;
  onClose: () => void;
}

/** The dialog; see the module doc. */
export function QrCodeDialog({ row, lib, onClose }: QrCodeDialogProps) {
  const code = row ? sessionOf(row, lib).qrcode : "";
  const [svg, setSvg] = useState<{ code: string; markup: string } | null>(null);
  const shown = useRef(code);

  useEffect(() => {
    if (shown.current && !code) onClose();
    shown.current = code;
    if (!code) return;
    let live = true;
    qrSvg(code).then((markup) => live && setSvg({ code, markup }), () => {});
    return () => {
      live = false;
    };
  }, [code]);

  useEffect(() => {
    if (!row) onClose();
  }, [row === null]);

  const ready = svg && svg.code === code;
  return (
    <Modal open onOpenChange={(o) => !o && onClose()} title={t(lib === "evolution" ? "connections.qrTitleEvo" : "connections.qrTitle")}>
      <div className="qr-frame" data-testid="qr-dialog">
        {!code
          ? <p className="qr-waiting">{t("connections.qrWaiting")}</p>
          : ready
          ? <div className="qr-code" data-testid="qr-svg" role="img" aria-label={t("connections.showQr")} dangerouslySetInnerHTML={{ __html: svg.markup }} />
          : <div className="qr-code skeleton" aria-busy="true" />}
      </div>
    </Modal>
  );
}
