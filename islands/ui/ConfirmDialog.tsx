/**
 * The confirmation dialog of spec 001 §8: by default 'Exclusão de Registro' / 'Deseja
 * realmente excluir esse registro?' with Cancelar and Confirmar; other texts for other
 * confirmations (delete all, import all chats).
 */
import { t } from "../lib/i18n.ts";
import { Modal } from "./Modal.tsx";

/** Props of ConfirmDialog. */
export interface ConfirmDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onConfirm: () => void;
  title?: string;
  text?: string;
}

/** Asks before a destructive action; Confirmar runs `onConfirm` and closes. */
export function ConfirmDialog({ open, onOpenChange, onConfirm, title, text }: ConfirmDialogProps) {
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={title ?? t("confirm.deleteTitle")}
      footer={
        <>
          <button type="button" className="btn" onClick={() => onOpenChange(false)}>{t("common.cancel")}</button>
          <button
            type="button"
            className="btn btn-danger"
            data-testid="confirm"
            onClick={() => {
              onConfirm();
              onOpenChange(false);
            }}
          >
            {t("common.confirm")}
          </button>
        </>
      }
    >
      <p>{text ?? t("confirm.deleteText")}</p>
    </Modal>
  );
}
