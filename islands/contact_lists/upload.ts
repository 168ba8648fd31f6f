/** The list import both contact-list pages offer: pick a .csv/.xlsx, POST it, toast the counts. */
import { api } from "../lib/api.ts";
import { t } from "../lib/i18n.ts";
import { showToast, toastError } from "../lib/toast.ts";

/** Opens the file picker and imports the chosen file into list `listId`; resolves true when imported. */
export function importIntoList(listId: number): Promise<boolean> {
  return new Promise((resolve) => {
    const input = document.createElement("input");
    input.type = "file";
    input.accept = ".csv,.xlsx";
    input.onchange = async () => {
      const file = input.files?.[0];
      if (!file) return resolve(false);
      const form = new FormData();
      form.append("file", file);
      try {
        const r = await api<{ valid: number; invalid: number; created: number; duplicated: number }>("POST", `/contact-lists/${listId}/upload`, form);
        showToast("success", t("contactLists.imported", { created: r.created, invalid: r.invalid, duplicated: r.duplicated }));
        resolve(true);
      } catch (error) {
        toastError((error as { body?: unknown }).body ?? error);
        resolve(false);
      }
    };
    input.click();
  });
}
