/**
 * The quick reply's one attachment: the attached file's name with a remove button, or a
 * button that opens the file picker. A file of another type than the spec's (001 §5: .mp4
 * .mp3 .pdf .txt .png .jpg .jpeg) is refused here, before any upload; the server refuses
 * it as well.
 */
import { useId, useRef, useState } from "react";
import { Paperclip, Upload, X } from "lucide-react";
import { isQuickMedia, QUICK_MEDIA } from "../../domain/quick_message.ts";
import { t } from "../lib/i18n.ts";

/** Props of AttachmentField. */
export interface AttachmentFieldProps {
  /** The attached (or chosen) file's name, or null. */
  name: string | null;
  /** The form's message for the attachment (e.g. the server refused the upload). */
  error?: string;
  disabled?: boolean;
  /** A valid file was chosen (File) or the attachment removed (null). */
  onChoose: (file: File | null) => void;
}

/** The attachment row of the quick reply dialog. */
export function AttachmentField({ name, error, disabled, onChoose }: AttachmentFieldProps) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [refused, setRefused] = useState<string | null>(null);
  const message = refused ?? error;
  return (
    <div className="field form-full qm-attachment">
      <label htmlFor={id}>{t("quickMessages.attachment")}</label>
      <div className="qm-attachment-row">
        {name && (
          <span className="qm-file" data-testid="quick-message-file">
            <Paperclip size={14} aria-hidden="true" /> <span className="qm-file-name">{name}</span>
          </span>
        )}
        <button type="button" className="btn" onClick={() => input.current?.click()} disabled={disabled}>
          <Upload size={16} aria-hidden="true" /> {t(name ? "quickMessages.replaceFile" : "quickMessages.attach")}
        </button>
        {name && (
          <button
            type="button"
            className="icon-btn icon-danger"
            aria-label={t("quickMessages.removeFile")}
            title={t("quickMessages.removeFile")}
            onClick={() => {
              setRefused(null);
              onChoose(null);
            }}
            disabled={disabled}
          >
            <X size={16} />
          </button>
        )}
        <input
          ref={input}
          id={id}
          type="file"
          className="sr-only"
          accept={QUICK_MEDIA.join(",")}
          aria-invalid={message ? true : undefined}
          aria-describedby={message ? `${id}-error` : undefined}
          data-testid="quick-message-file-input"
          onChange={(e) => {
            const chosen = e.target.files?.[0];
            e.target.value = "";
            if (!chosen) return;
            if (!isQuickMedia(chosen.name)) return setRefused(t("quickMessages.fileType"));
            setRefused(null);
            onChoose(chosen);
          }}
        />
      </div>
      {message
        ? <span className="field-error" id={`${id}-error`} role="alert">{message}</span>
        : <span className="field-hint">{t("quickMessages.fileTypes")}</span>}
    </div>
  );
}
