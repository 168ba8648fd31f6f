/**
 * Contact import (spec 001 §2.14, §7): `POST /contacts/upload` with a .csv, .xls or .xlsx
 * file, `POST /contacts/import` (the phone's address book) and `POST /contacts/import/chats`
 * (one contact per individual chat) of the default connection or the body's `whatsappId`.
 * A table is read (papaparse for text, exceljs for .xlsx workbooks, SheetJS for the legacy
 * binary .xls of Excel 97–2003); rows are checked
 * (domain/contact_import.ts), and the valid ones are created in chunks through the contacts
 * actor, which skips numbers already known. After each chunk a progress event
 * `{ action: "progress", done, total }` goes to the importing user on
 * `company-{id}-contactImport` (the UI's 'Importando contatos (x/y)').
 */
import type ExcelJS from "exceljs";
import Papa from "papaparse";
import { type Context, Hono } from "hono";
import { createManyContacts } from "../../actors/contacts/mod.ts";
import { defaultWhatsapp, getWhatsapp } from "../../actors/whatsapps/mod.ts";
import type { PhoneContact } from "../../domain/channel.ts";
import {
  checkRows,
  importColumns,
  type ImportResult,
  type ImportRow,
  MISSING_COLUMNS,
  PhoneImport,
  phoneRows,
  type RowError,
} from "../../domain/contact_import.ts";
import { AppError, notFound } from "../../domain/errors.ts";
import { companyChannel } from "../../domain/events.ts";
import type { Principal } from "../../domain/permissions.ts";
import { MSG } from "../../domain/text.ts";
import { requireAuth } from "../auth/middleware.ts";
import { parseBody } from "../http/validate.ts";
import { companyCountry } from "../http/phone.ts";
import type { AppDeps, AppEnv } from "../deps.ts";
import { readUpload, requireExtension } from "./upload_field.ts";

/** File types of the import (spec 001 §5). */
const IMPORT_TYPES = [".csv", ".xls", ".xlsx"] as const;
/** Rows accepted in one file. */
const MAX_ROWS = 100_000;

const bad = (message: string) =>
  new AppError("ERR_VALIDATION", { status: 400, message, fields: { file: message } });

/** The text of a workbook cell, whatever exceljs made of it (number, rich text, link, formula). */
function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return Number.isInteger(value) ? value.toFixed(0) : String(value);
  if (typeof value !== "object") return String(value);
  if (value instanceof Date) return value.toISOString();
  if ("richText" in value) return value.richText.map((r) => r.text).join("");
  if ("text" in value) return String(value.text);
  if ("result" in value) return cellText(value.result as ExcelJS.CellValue);
  return "";
}

async function readWorkbook(bytes: Uint8Array): Promise<string[][]> {
  // Loaded on first use: exceljs costs ~39 MB of RSS a server that never reads a workbook does not need.
  const { default: Excel } = await import("exceljs");
  const workbook = new Excel.Workbook();
  try {
    await workbook.xlsx.load(bytes.buffer as ArrayBuffer);
  } catch (error) {
    throw new AppError("ERR_VALIDATION", {
      status: 400,
      message: "A planilha não pôde ser lida",
      cause: error,
    });
  }
  const sheet = workbook.worksheets[0];
  const rows: string[][] = [];
  sheet?.eachRow({ includeEmpty: false }, (row) => {
    const values = Array.isArray(row.values) ? row.values.slice(1) : [];
    rows.push(values.map((v) => cellText(v as ExcelJS.CellValue)));
  });
  return rows;
}

/** The text of a legacy sheet's cell as SheetJS reads it raw (a number, a boolean, a text). */
function legacyCellText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return Number.isInteger(value) ? value.toFixed(0) : String(value);
  if (value instanceof Date) return value.toISOString();
  return String(value);
}

/**
 * The first sheet of a legacy binary workbook (Excel 97–2003 .xls, BIFF8 in an OLE2 file).
 * exceljs reads only .xlsx; SheetJS does, and only here: `@e965/xlsx` is SheetJS 0.20.3
 * republished on npm (npm's own `xlsx` stops at 0.18.5, with its known vulnerabilities).
 * Loaded on first use, like exceljs.
 */
async function readLegacyWorkbook(bytes: Uint8Array): Promise<string[][]> {
  const XLSX = await import("@e965/xlsx");
  let rows: unknown[][];
  try {
    const book = XLSX.read(bytes, { type: "array", dense: true });
    const sheet = book.Sheets[book.SheetNames[0]];
    rows = sheet ? XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: true, defval: "", blankrows: false }) : [];
  } catch (error) {
    throw new AppError("ERR_VALIDATION", { status: 400, message: "A planilha não pôde ser lida", cause: error });
  }
  return rows.map((row) => row.map(legacyCellText));
}

function readCsv(bytes: Uint8Array): string[][] {
  const text = new TextDecoder().decode(bytes).replace(/^\uFEFF/, "");
  const parsed = Papa.parse<string[]>(text, {
    skipEmptyLines: "greedy",
    delimitersToGuess: [";", ",", "\t", "|"],
  });
  return parsed.data;
}

/**
 * The rows of an uploaded table, judged by content rather than name: a zip is an .xlsx
 * workbook, an OLE2 file is a legacy binary .xls (Excel 97–2003), anything else is
 * delimited text (many ".xls" exports are).
 */
export async function readTable(file: File): Promise<string[][]> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  if (bytes[0] === 0x50 && bytes[1] === 0x4b) return await readWorkbook(bytes);
  if (bytes[0] === 0xd0 && bytes[1] === 0xcf && bytes[2] === 0x11 && bytes[3] === 0xe0) return await readLegacyWorkbook(bytes);
  return readCsv(bytes);
}

/**
 * The rows of the spreadsheet uploaded in `c` (field file, medias or media), checked: its type
 * among `types`, the name/number columns, at most MAX_ROWS rows. The contacts import and a
 * contact list's import read a file the same way.
 */
export async function readUploadedRows(c: Context<AppEnv>, types: readonly string[]): Promise<ReturnType<typeof checkRows>> {
  const { file } = await readUpload(c, ["file", "medias", "media"]);
  if (!file) throw bad(`file: ${MSG.obrigatorio}`);
  requireExtension(file, types);
  const table = await readTable(file);
  const columns = importColumns(table[0] ?? []);
  if (!columns) throw bad(MISSING_COLUMNS);
  if (table.length - 1 > MAX_ROWS) throw bad(`O arquivo tem mais de ${MAX_ROWS} linhas`);
  return checkRows(table.slice(1), columns, await companyCountry(c.get("deps").system, c.get("principal").companyId));
}

/**
 * Creates the checked rows of an import for `who`'s company (numbers already known count as
 * duplicated) and publishes `{ action: "progress", done, total }` to `who` on
 * `company-{id}-contactImport` at the start and after every durable chunk.
 */
export async function importContacts(
  deps: Pick<AppDeps, "system" | "bus">,
  who: Pick<Principal, "id" | "companyId">,
  checked: { valid: ImportRow[]; errors: RowError[] },
): Promise<ImportResult> {
  const { valid, errors } = checked;
  const progress = (done: number, total: number) =>
    deps.bus.publish({
      companyId: who.companyId,
      channel: companyChannel(who.companyId, "contactImport"),
      data: { action: "progress", done, total },
      scope: { kind: "users", userIds: [who.id] },
    });
  progress(0, valid.length);
  const outcome = await createManyContacts(deps.system, who.companyId, valid, progress);
  return {
    valid: valid.length,
    invalid: errors.length,
    created: outcome.created.length,
    duplicated: outcome.duplicated,
    errors: errors.slice(0, 100),
  };
}

/**
 * The connection an import from the phone reads: `whatsappId` when given (404
 * `ERR_NO_WAPP_FOUND` when not the company's), else the default one
 * (`ERR_WAPP_NOT_INITIALIZED` when the company has none).
 */
async function importConnection(deps: AppDeps, companyId: number, whatsappId: number | null): Promise<number> {
  if (whatsappId !== null) {
    const found = await getWhatsapp(deps.system, companyId, whatsappId);
    if (!found) throw notFound("ERR_NO_WAPP_FOUND", `Connection ${whatsappId} does not exist`);
    return found.id;
  }
  const fallback = await defaultWhatsapp(deps.system, companyId).catch(() => undefined);
  if (!fallback) {
    throw new AppError("ERR_WAPP_NOT_INITIALIZED", {
      status: 400,
      message: `Company ${companyId} has no connection to import contacts from`,
    });
  }
  return fallback.id;
}

/** What a phone import lists: the address book or the individual chats. */
type PhoneSource = (deps: AppDeps, companyId: number, whatsappId: number) => Promise<PhoneContact[]>;

const fromAddressBook: PhoneSource = (deps, companyId, whatsappId) =>
  deps.channels.phoneContacts(companyId, whatsappId);
const fromChats: PhoneSource = (deps, companyId, whatsappId) =>
  deps.channels.chatContacts(companyId, whatsappId);

/** The import route, mounted at `/contacts` (next to contacts.ts). */
export function contactImportRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.post("/upload", requireAuth(), async (c) => {
    const checked = await readUploadedRows(c, IMPORT_TYPES);
    return c.json(await importContacts(c.get("deps"), c.get("principal"), checked));
  });

  for (const [path, source] of [["/import", fromAddressBook], ["/import/chats", fromChats]] as const) {
    app.post(path, requireAuth(), async (c) => {
      const { whatsappId } = await parseBody(c, PhoneImport);
      const deps = c.get("deps");
      const who = c.get("principal");
      const connection = await importConnection(deps, who.companyId, whatsappId);
      const listed = await source(deps, who.companyId, connection);
      return c.json(await importContacts(deps, who, phoneRows(listed)));
    });
  }

  return app;
}
