/**
 * The simulated phone's composer: a text box (Enter sends, Shift+Enter starts a new line, as
 * WhatsApp Web), a file to attach (its caption is the text), a location and a contact card,
 * each from a small dialog (PhoneDialogs.tsx). Everything goes out as this customer's message.
 */
import { type KeyboardEvent, useId, useRef, useState } from "react";
import { MapPin, Paperclip, SendHorizontal, UserRound } from "lucide-react";
import { mediaTypeOfMime } from "../../domain/message.ts";
import { t } from "../lib/i18n.ts";
import { showToast } from "../lib/toast.ts";
import { ContactDialog, LocationDialog } from "./PhoneDialogs.tsx";
import type { PhoneSend } from "./types.ts";

/** Largest file the phone sends (the simulator's API takes up to ~3.7 MB of base64). */
const MAX_FILE = 3 * 1024 * 1024;

/** Props of PhoneComposer. */
export interface PhoneComposerProps {
  disabled: boolean;
  onSend: (message: PhoneSend) => Promise<void>;
}

/** The file's bytes as base64 (chunked: a large file would overflow the argument list). */
async function base64Of(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** The composer; see the module doc. */
export function PhoneComposer({ disabled, onSend }: PhoneComposerProps) {
  const [text, setText] = useState("");
  const [busy, setBusy] = useState(false);
  const [dialog, setDialog] = useState<"location" | "contact" | null>(null);
  const file = useRef<HTMLInputElement>(null);
  const box = useRef<HTMLTextAreaElement>(null);
  const hint = useId();

  const send = async (message: PhoneSend) => {
    setBusy(true);
    try {
      await onSend(message);
    } finally {
      setBusy(false);
      box.current?.focus();
    }
  };
  const sendText = async () => {
    const body = text.trim();
    if (!body || busy) return;
    setText("");
    await send({ body });
  };
  const onKey = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      sendText();
    }
  };
  const attach = async (picked: File | undefined) => {
    if (!picked) return;
    if (picked.size > MAX_FILE) return showToast("error", t("simulator.fileTooLarge"));
    const kind = mediaTypeOfMime(picked.type || "application/octet-stream");
    const caption = text.trim();
    setText("");
    await send({
      body: caption,
      mediaType: kind === "application" ? "document" : kind,
      mediaBase64: await base64Of(picked),
      mimetype: picked.type || "application/octet-stream",
      filename: picked.name,
    });
  };

  const off = disabled || busy;
  return (
    <div className="phone-composer">
      <button type="button" className="icon-btn" aria-label={t("simulator.attach")} title={t("simulator.attach")} disabled={off} onClick={() => file.current?.click()}>
        <Paperclip size={20} aria-hidden="true" />
      </button>
      <input
        ref={file}
        type="file"
        hidden
        accept="image/*,video/*,audio/*,application/pdf,.doc,.docx,.xls,.xlsx,.txt"
        onChange={(e) => {
          attach(e.target.files?.[0]);
          e.target.value = "";
        }}
        data-testid="phone-file"
      />
      <button type="button" className="icon-btn" aria-label={t("simulator.location")} title={t("simulator.location")} disabled={off} onClick={() => setDialog("location")}>
        <MapPin size={20} aria-hidden="true" />
      </button>
      <button type="button" className="icon-btn" aria-label={t("simulator.contact")} title={t("simulator.contact")} disabled={off} onClick={() => setDialog("contact")}>
        <UserRound size={20} aria-hidden="true" />
      </button>
      <textarea
        ref={box}
        className="input phone-input"
        rows={1}
        value={text}
        placeholder={t("simulator.composer")}
        aria-label={t("simulator.composer")}
        aria-describedby={hint}
        disabled={disabled}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKey}
        data-testid="phone-input"
      />
      <span id={hint} className="sr-only">{t("simulator.composerHint")}</span>
      <button type="button" className="icon-btn phone-send" aria-label={t("simulator.send")} title={t("simulator.send")} disabled={off || !text.trim()} onClick={sendText}>
        <SendHorizontal size={20} aria-hidden="true" />
      </button>
      {dialog === "location" && <LocationDialog onClose={() => setDialog(null)} onSend={send} />}
      {dialog === "contact" && <ContactDialog onClose={() => setDialog(null)} onSend={send} />}
    </div>
  );
}
