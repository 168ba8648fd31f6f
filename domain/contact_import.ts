/**
 * Contact import (spec 001 §2.14): a table whose header names the columns Nome and Telefone
 * (required) and optionally Email; other columns are ignored. Each row is checked with the
 * contact form's rules (name 2–50, number 8–50 digits, valid e-mail); bad rows are counted
 * and reported with their line number, never half-imported.
 */
import { z } from "zod";
import { normalizeNumber, PhoneNumber } from "./contact.ts";
import { foldText } from "./contact.ts";
import type { PhoneContact } from "./channel.ts";
import { EmailAddress, MSG, OptionalId } from "./text.ts";
import { normalizePhone, phoneProblem } from "./phone_number.ts";

/** Header spellings accepted for each column (compared folded: no accents, lower case). */
const COLUMNS = {
  name: ["nome", "name"],
  number: ["telefone", "numero", "number", "phone", "celular", "whatsapp"],
  email: ["email", "e-mail"],
} as const;

/** Where each known column sits in the header row (-1 when absent). */
export interface ImportColumns {
  name: number;
  number: number;
  email: number;
}

/** Finds the columns in a header row; null when Nome or Telefone is missing. */
export function importColumns(header: readonly string[]): ImportColumns | null {
  const folded = header.map((h) => foldText(String(h ?? "").trim()));
  const find = (names: readonly string[]) => folded.findIndex((h) => names.includes(h));
  const columns = {
    name: find(COLUMNS.name),
    number: find(COLUMNS.number),
    email: find(COLUMNS.email),
  };
  return columns.name < 0 || columns.number < 0 ? null : columns;
}

/** The message of a file without the required columns. */
export const MISSING_COLUMNS = "O arquivo precisa das colunas Nome e Telefone";

/** One data row as imported. */
export const ImportRow = z.object({
  name: z.string().trim().min(1, MSG.required).min(2, MSG.tooShort).max(50, MSG.tooLong),
  number: PhoneNumber,
  email: z.union([z.literal(""), EmailAddress]),
});
export type ImportRow = z.infer<typeof ImportRow>;

/** A row that failed, with its 1-based line in the file (the header is line 1). */
export interface RowError {
  line: number;
  field: string;
  message: string;
}

/**
 * Splits data rows into valid contacts and errors; numbers are read for a company in
 * `country` (phone_number.ts: its calling code when missing), and one no WhatsApp account
 * can have is the row's error.
 */
export function checkRows(
  rows: readonly (readonly string[])[],
  columns: ImportColumns,
  country?: string | null,
): { valid: ImportRow[]; errors: RowError[] } {
  const valid: ImportRow[] = [];
  const errors: RowError[] = [];
  rows.forEach((row, i) => {
    const cell = (at: number) => (at < 0 ? "" : String(row[at] ?? "").trim());
    if (row.every((v) => String(v ?? "").trim() === "")) return;
    judgeRow({
      name: cell(columns.name),
      number: cell(columns.number),
      email: cell(columns.email).toLowerCase(),
    }, i + 2, valid, errors, country);
  });
  return { valid, errors };
}

/** Checks one row: valid rows join `valid`, a refused one adds its first issue at `line`. */
function judgeRow(input: ImportRow, line: number, valid: ImportRow[], errors: RowError[], country?: string | null): void {
  const result = ImportRow.safeParse(input);
  if (result.success) {
    const number = normalizePhone(result.data.number, country);
    const problem = phoneProblem(number);
    if (problem) errors.push({ line, field: "number", message: problem });
    else valid.push({ ...result.data, number });
  } else {
    const issue = result.error.issues[0];
    errors.push({ line, field: String(issue.path[0] ?? ""), message: issue.message });
  }
}

/**
 * Body of `POST /contacts/import` and `/contacts/import/chats`: the connection whose phone is
 * read; without it, the company's default connection.
 */
export const PhoneImport = z.object({ whatsappId: OptionalId });
export type PhoneImport = z.infer<typeof PhoneImport>;

/**
 * The phone's contacts (or chats) as import rows, checked with the same rules as a file's:
 * a phone name is free text, so a missing or one-letter name becomes the number and a long one
 * is cut to 50 characters. An error's `line` is the contact's 1-based place in the list.
 */
export function phoneRows(list: readonly PhoneContact[]): { valid: ImportRow[]; errors: RowError[] } {
  const valid: ImportRow[] = [];
  const errors: RowError[] = [];
  list.forEach((contact, i) => {
    const name = contact.name.trim().slice(0, 50).replace(/[\uD800-\uDBFF]$/, "");
    const number = normalizeNumber(contact.number);
    // The phone's numbers are WhatsApp's own, international already: "+" keeps them as they are.
    judgeRow({ name: name.length >= 2 ? name : number, number: `+${number}`, email: "" }, i + 1, valid, errors);
  });
  return { valid, errors };
}

/** The import's answer (the UI toasts 'Importação concluída! Contatos Válidos: {valid}'). */
export interface ImportResult {
  valid: number;
  invalid: number;
  created: number;
  duplicated: number;
  /** The first errors (at most 100), to show which lines were refused. */
  errors: RowError[];
}
