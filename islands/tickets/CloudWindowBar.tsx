/**
 * The WhatsApp Cloud API's 24-hour customer-service window above the composer (issue #22):
 * for a ticket of an official-number connection it says until when free text may be sent, or
 * that the window is closed, and offers the connection's approved templates (the only thing
 * Meta delivers outside the window). Renders nothing for other providers. Reads
 * GET /messages/{ticketId}/window again when the customer writes (`refreshKey`).
 */
import { useEffect, useMemo, useState } from "react";
import { renderTemplate, type TemplateInfo } from "../../domain/whatsapp.ts";
import { api, get } from "../lib/api.ts";
import { t } from "../lib/i18n.ts";
import { showToast, toastError } from "../lib/toast.ts";
import { Modal } from "../ui/Modal.tsx";
import type { Message } from "./types.ts";

/** GET /messages/{ticketId}/window. */
interface WindowInfo {
  provider: string | null;
  open: boolean;
  expiresAt: number | null;
}

/** Props of CloudWindowBar. */
export interface CloudWindowBarProps {
  ticketId: number;
  whatsappId: number | null;
  /** Changes when a customer message arrives (the window restarts). */
  refreshKey: string;
  /** The template message the server stored. */
  onSent: (message: Message) => void;
}

/** The window's state and the template button; nothing unless the connection is a Cloud API one. */
export function CloudWindowBar({ ticketId, whatsappId, refreshKey, onSent }: CloudWindowBarProps) {
  const [info, setInfo] = useState<WindowInfo | null>(null);
  const [picking, setPicking] = useState(false);
  useEffect(() => {
    let live = true;
    get<WindowInfo>(`/messages/${ticketId}/window`).then((w) => live && setInfo(w), () => live && setInfo(null));
    return () => {
      live = false;
    };
  }, [ticketId, refreshKey]);
  if (!info || info.provider !== "cloudapi" || whatsappId === null) return null;
  const until = info.expiresAt === null ? "" : new Date(info.expiresAt).toLocaleString(undefined, { dateStyle: "short", timeStyle: "short" });
  return (
    <div className={info.open ? "cloud-window" : "cloud-window is-closed"} role="status" data-testid="cloud-window" data-open={info.open}>
      <span>{info.open ? t("connections.cloud.windowOpen", { until }) : t("connections.cloud.windowClosed")}</span>
      <button type="button" className={info.open ? "btn" : "btn btn-primary"} onClick={() => setPicking(true)}>
        {t("connections.cloud.sendTemplate")}
      </button>
      {picking && (
        <TemplateDialog
          ticketId={ticketId}
          whatsappId={whatsappId}
          onClose={() => setPicking(false)}
          onSent={(message) => {
            onSent(message);
            setPicking(false);
          }}
        />
      )}
    </div>
  );
}

/** Picks an approved template, fills its parameters with a live preview, and sends it. */
function TemplateDialog({ ticketId, whatsappId, onClose, onSent }: { ticketId: number; whatsappId: number; onClose: () => void; onSent: (m: Message) => void }) {
  const [templates, setTemplates] = useState<TemplateInfo[] | null>(null);
  const [chosen, setChosen] = useState(0);
  const [params, setParams] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    let live = true;
    get<TemplateInfo[]>(`/whatsapp/${whatsappId}/templates`).then((list) => live && setTemplates(list), (error) => {
      toastError((error as { body?: unknown }).body ?? error);
      if (live) setTemplates([]);
    });
    return () => {
      live = false;
    };
  }, [whatsappId]);
  const template = templates?.[chosen];
  const preview = useMemo(() => (template ? renderTemplate(template.body, params) : ""), [template, params]);
  const ready = template !== undefined && params.length === template.params && params.every((p) => p.trim() !== "");
  const send = async () => {
    if (!template || !ready) return;
    setBusy(true);
    try {
      const sent = await api<{ message: Message }>("POST", `/messages/${ticketId}/template`, { name: template.name, language: template.language, params });
      showToast("success", t("connections.cloud.templateSent"));
      onSent(sent.message);
    } catch (error) {
      toastError((error as { body?: unknown }).body ?? error);
    } finally {
      setBusy(false);
    }
  };
  const footer = (
    <>
      <button type="button" className="btn" onClick={onClose}>{t("common.cancel")}</button>
      <button type="button" className="btn btn-primary" disabled={!ready || busy} onClick={send} data-testid="template-send">
        {t("connections.cloud.send")}
      </button>
    </>
  );
  return (
    <Modal open onOpenChange={(o) => !o && onClose()} title={t("connections.cloud.templates")} footer={footer}>
      {templates === null && <p className="muted">{t("common.loading")}</p>}
      {templates?.length === 0 && <p className="muted">{t("connections.cloud.noTemplates")}</p>}
      {template && (
        <div className="cloud-template-form">
          <label className="field">
            <span>{t("connections.cloud.template")}</span>
            <select
              className="input"
              value={chosen}
              onChange={(e) => {
                setChosen(Number(e.target.value));
                setParams([]);
              }}
            >
              {templates!.map((tpl, i) => <option key={`${tpl.name}:${tpl.language}`} value={i}>{`${tpl.name} (${tpl.language})`}</option>)}
            </select>
          </label>
          {Array.from({ length: template.params }, (_, i) => (
            <label className="field" key={i}>
              <span>{t("connections.cloud.param", { n: i + 1 })}</span>
              <input
                className="input"
                value={params[i] ?? ""}
                onChange={(e) => setParams((old) => Array.from({ length: template.params }, (_, j) => (j === i ? e.target.value : old[j] ?? "")))}
              />
            </label>
          ))}
          <p className="cloud-template-preview" data-testid="template-preview">{preview}</p>
        </div>
      )}
    </Modal>
  );
}
