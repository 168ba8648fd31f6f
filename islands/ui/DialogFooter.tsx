/**
 * The footer of a form dialog: a cancel (or close) button and the primary action, which
 * either submits the form `form` (Enter in a field submits too) or calls `onSubmit`.
 */
import { t } from "../lib/i18n.ts";

/** Props of DialogFooter. */
export interface DialogFooterProps {
  onCancel: () => void;
  /** Defaults to 'Cancelar'. */
  cancelLabel?: string;
  /** Defaults to 'Salvar'. */
  submitLabel?: string;
  /** The id of the form the primary button submits; without it the button calls `onSubmit`. */
  form?: string;
  onSubmit?: () => void;
  disabled?: boolean;
  testId?: string;
}

/** Cancel and primary buttons of a dialog. */
export function DialogFooter({ onCancel, cancelLabel, submitLabel, form, onSubmit, disabled, testId }: DialogFooterProps) {
  return (
    <>
      <button type="button" className="btn" onClick={onCancel}>{cancelLabel ?? t("common.cancel")}</button>
      <button
        type={form ? "submit" : "button"}
        form={form}
        className="btn btn-primary"
        onClick={form ? undefined : onSubmit}
        disabled={disabled}
        data-testid={testId}
      >
        {submitLabel ?? t("common.save")}
      </button>
    </>
  );
}
