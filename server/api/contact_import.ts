/**
 * Contact import (spec 001 §2.14, §7): `POST /contacts/upload` with a .csv, .xls or .xlsx
 * file. The table is read (papaparse for text, exceljs for workbooks), checked row by row
 * (domain/contact_import.ts), and the valid rows are created in chunks through the contacts
 * actor, which skips numbers already known. After each chunk a progress event
 * `{ action: "progress", done, total }` goes to the importing user on
 * `company-{id}-contactImport` (the UI's 'Importando contatos (x/y)').
 */
import ExcelJS from "exceljs";
import Papa from "papaparse";
import { Hono } from "hono";
import { createManyContacts } from "../../actors/contacts/mod.ts";
import {
  checkRows,
  importColumns,
  type ImportResult,
  MISSING_COLUMNS,
} from "../../domain/contact_import.ts";
import { AppError } from "../../domain/errors.ts";
import { companyChannel } from "../../domain/events.ts";
import { MSG } from "../../domain/text.ts";
import { requireAuth } from "../auth/middleware.ts";
import type { AppEnv } from "../deps.ts";
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
  const workbook = new ExcelJS.Workbook();
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
 * workbook, an OLE2 file is a legacy binary .xls (not readable here: the message asks for
 * .xlsx or .csv), anything else is delimited text (many ".xls" exports are).
 */
export async function readTable(file: File): Promise<string[][]> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  if (bytes[0] === 0x50 && bytes[1] === 0x4b) return await readWorkbook(bytes);
  if (bytes[0] === 0xd0 && bytes[1] === 0xcf && bytes[2] === 0x11 && bytes[3] === 0xe0) {
    throw bad("Planilha .xls antiga (Excel 97) não suportada: salve como .xlsx ou .csv");
  }
  return readCsv(bytes);
}

/** The import route, mounted at `/contacts` (next to contacts.ts). */
export function contactImportRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.post("/upload", requireAuth(), async (c) => {
    const { file } = await readUpload(c, ["file", "medias", "media"]);
    if (!file) throw bad(`file: ${MSG.obrigatorio}`);
    requireExtension(file, IMPORT_TYPES);
    const table = await readTable(file);
    const columns = importColumns(table[0] ?? []);
    if (!columns) throw bad(MISSING_COLUMNS);
    if (table.length - 1 > MAX_ROWS) throw bad(`O arquivo tem mais de ${MAX_ROWS} linhas`);
    const { valid, errors } = checkRows(table.slice(1), columns);
    const { system, bus } = c.get("deps");
    const who = c.get("principal");
    const progress = (done: number, total: number) =>
      bus.publish({
        companyId: who.companyId,
        channel: companyChannel(who.companyId, "contactImport"),
        data: { action: "progress", done, total },
        scope: { kind: "users", userIds: [who.id] },
      });
    progress(0, valid.length);
    const outcome = await createManyContacts(system, who.companyId, valid, progress);
    const result: ImportResult = {
      valid: valid.length,
      invalid: errors.length,
      created: outcome.created.length,
      duplicated: outcome.duplicated,
      errors: errors.slice(0, 100),
    };
    return c.json(result);
  });

  return app;
}
