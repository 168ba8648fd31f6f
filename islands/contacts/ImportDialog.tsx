/**
 * The import instruction dialog (spec 001 §2.14, §5): the file rules (.xls, .xlsx or .csv;
 * columns Nome and Telefone; the phone in international format without spaces or symbols;
 * other columns ignored) and the file picker. The upload itself runs on after the dialog
 * closes (./import_file.ts), its progress shown as toasts.
 */
import { type FormEvent, useId, useState } from "react";
import { t } from "../lib/i18n.ts";
import { DialogFooter } from "../ui/DialogFooter.tsx";
import { Modal } from "../ui/Modal.tsx";
import { IMPORT_EXTENSIONS, importable } from "./import_file.ts";

/** Props of ImportDialog. */
export interface ImportDialogProps {
  onClose: () => void;
  /** Starts the import of the chosen file. */
  onImport: (file: File) => void;
}

/** The rules and a file picker; 'Importar' hands the file over and closes. */
export function ImportDialog({ onClose, onImport }: ImportDialogProps) {
  const id = useId();
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState("");

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!file) return setError(t("contacts.importChoose"));
    if (!importable(file.name)) return setError(t("contacts.importWrongType"));
    onImport(file);
    onClose();
  }

  return (
    <Modal
      open
      onOpenChange={(o) => !o && onClose()}
      title={t("contacts.importTitle")}
      footer={<DialogFooter onCancel={onClose} form={id} submitLabel={t("contacts.importSend")} testId="import-send" />}
    >
      <form id={id} onSubmit={submit} noValidate>
        <ul className="import-rules">
          <li>{t("contacts.importRuleFile")}</li>
          <li>{t("contacts.importRuleColumns")}</li>
          <li>{t("contacts.importRulePhone")}</li>
          <li>{t("contacts.importRuleExtra")}</li>
        </ul>
        <div className="field">
          <label htmlFor={`${id}-file`}>{t("contacts.importFile")}</label>
          <input
            id={`${id}-file`}
            type="file"
            className="input"
            accept={IMPORT_EXTENSIONS.join(",")}
            aria-invalid={error ? true : undefined}
            onChange={(e) => {
              setFile(e.target.files?.[0] ?? null);
              setError("");
            }}
          />
          {error && <span className="field-error" role="alert">{error}</span>}
        </div>
      </form>
    </Modal>
  );
}
