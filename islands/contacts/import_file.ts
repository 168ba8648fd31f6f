/**
 * The upload of an import file (spec 001 §2.14, §7, §8): POST /contacts/upload (multipart
 * `file`) while the server's progress events on `company-{id}-contactImport` become the
 * 'Importando contatos (x/y)' toast; the answer becomes 'Importação concluída! Contatos
 * Válidos: {n}'. One toast key, so each step replaces the previous one.
 */
import { api } from "../lib/api.ts";
import { t } from "../lib/i18n.ts";
import { channelName, onChannel } from "../lib/socket.ts";
import { showToast, toastError } from "../lib/toast.ts";

/** The file types the import reads (spec 001 §5). */
export const IMPORT_EXTENSIONS = [".xls", ".xlsx", ".csv"] as const;

const TOAST_KEY = "contact-import";

/** Whether `name` ends with one of the import's extensions. */
export function importable(name: string): boolean {
  const lower = name.toLowerCase();
  return IMPORT_EXTENSIONS.some((ext) => lower.endsWith(ext));
}

/** What POST /contacts/upload and the phone imports answer. */
export interface ImportResult {
  valid: number;
  invalid: number;
  created: number;
  duplicated: number;
}

/** The progress toast for one server event; whether it is the last one (every row done). */
function onProgress(data: unknown): boolean {
  const event = data as { action?: string; done?: number; total?: number };
  if (event?.action !== "progress" || typeof event.total !== "number") return false;
  showToast("info", t("contacts.importProgress", { done: event.done ?? 0, total: event.total }), TOAST_KEY);
  return (event.done ?? 0) >= event.total;
}

/**
 * How long an import's answer waits for its last progress event. The server publishes the
 * contacts' create events, then that event, and the socket keeps their order: once it has
 * come, no create event of the import is still on its way, so a list reloaded then is not
 * counted again by late events (each one a row added on top). A socket that is down does
 * not hold the answer longer than this.
 */
const LAST_PROGRESS_WAIT_MS = 5_000;

/**
 * Runs one import call (`send`) with the progress toasts around it; resolves with the
 * result, or null after showing the failure, once the import's events have arrived (above).
 */
export async function withImportToasts(companyId: number, send: () => Promise<ImportResult>): Promise<ImportResult | null> {
  const last = Promise.withResolvers<void>();
  const off = onChannel(channelName(companyId, "contactImport"), (data) => {
    if (onProgress(data)) last.resolve();
  });
  try {
    const result = await send();
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([last.promise, new Promise<void>((r) => timer = setTimeout(r, LAST_PROGRESS_WAIT_MS))]);
    clearTimeout(timer);
    showToast("success", t("contacts.importDone", { n: result.valid }), TOAST_KEY);
    return result;
  } catch (error) {
    // A refused file (no Nome/Telefone columns, too many rows…) says why in `fields.file`.
    const body = (error as { body?: { fields?: { file?: string } } }).body;
    if (body?.fields?.file) showToast("error", body.fields.file, TOAST_KEY);
    else toastError(body ?? error);
    return null;
  } finally {
    off();
  }
}

/** Uploads `file` as the import of `companyId`'s contacts. */
export function importFile(companyId: number, file: File): Promise<ImportResult | null> {
  const body = new FormData();
  body.append("file", file, file.name);
  return withImportToasts(companyId, () => api<ImportResult>("POST", "/contacts/upload", body));
}

/** Imports the address book of the default connection's phone (POST /contacts/import). */
export function importPhoneBook(companyId: number): Promise<ImportResult | null> {
  return withImportToasts(companyId, () => api<ImportResult>("POST", "/contacts/import", {}));
}

/** Imports every individual chat of the default connection (POST /contacts/import/chats). */
export function importChats(companyId: number): Promise<ImportResult | null> {
  return withImportToasts(companyId, () => api<ImportResult>("POST", "/contacts/import/chats", {}));
}
