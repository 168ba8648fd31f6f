/**
 * The XML of a streamed worksheet's data rows, written by us instead of exceljs's row model:
 * for the ticket report's 100,000-row export, exceljs's Row/Cell objects and its XML writer
 * were ~75% of the time (100,000 rows of 10 cells: 9.6 s against 2.3 s on a loaded machine,
 * bench/report_export.ts), and their garbage the rest. exceljs still writes everything else
 * (the package, the header row, styles, the zip) through its streaming WorkbookWriter.
 *
 * The rows are byte for byte those exceljs 4.4 writes with `useSharedStrings: false` and
 * `useStyles: false` (sheet_rows_test.ts compares both for awkward values): numbers as
 * `<v>`, texts as `t="str"` escaped as its `xmlEncode` does (control characters dropped), an
 * instant as the spreadsheet serial date with the workbook's date style, null as no cell.
 */
import type { Worksheet } from "exceljs";

/** What a column holds: its cells are numbers, texts, or instants (ms since the epoch). */
export type ColumnKind = "number" | "text" | "date";

/** A cell's value: text, number, instant in ms for a date column, or null (no cell). */
export type CellValue = string | number | null;

// deno-lint-ignore no-control-regex -- the control characters exceljs drops are the point
const ESCAPABLE = /[<>&'"\x7F\x00-\x08\x0B\x0C\x0E-\x1F]/;

/** exceljs's `xmlEncode`: the five entities, and control characters (not tab, LF, CR) dropped. */
export function xmlText(text: string): string {
  if (!ESCAPABLE.test(text)) return text;
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) out += "&quot;";
    else if (c === 38) out += "&amp;";
    else if (c === 39) out += "&apos;";
    else if (c === 60) out += "&lt;";
    else if (c === 62) out += "&gt;";
    else if (c === 127 || (c <= 31 && c !== 9 && c !== 10 && c !== 13)) continue;
    else out += text[i];
  }
  return out;
}

/** Days from the spreadsheet epoch (1899-12-30) to the Unix epoch. */
const UNIX_EPOCH_SERIAL = 25569;

/** The writer of one sheet's data rows; see the module doc. */
export class SheetRows {
  readonly #kinds: readonly ColumnKind[];
  readonly #letters: readonly string[];
  readonly #dateStyle: number;

  /** `dateStyle`: the workbook's style id of dates (exceljs's `styles.dateStyleId`). */
  constructor(kinds: readonly ColumnKind[], dateStyle: number) {
    if (kinds.length > 26) throw new Error("SheetRows: at most 26 columns");
    this.#kinds = kinds;
    this.#letters = kinds.map((_, i) => String.fromCharCode(65 + i));
    this.#dateStyle = dateStyle;
  }

  /** The `<row>` element of row number `r` (1-based; the header is row 1). */
  row(r: number, values: readonly CellValue[]): string {
    let cells = "";
    for (let i = 0; i < this.#kinds.length; i++) {
      const v = values[i];
      if (v === null || v === undefined) continue;
      const ref = `${this.#letters[i]}${r}`;
      const kind = this.#kinds[i];
      if (kind === "text") cells += `<c r="${ref}" t="str"><v>${xmlText(String(v))}</v></c>`;
      else if (kind === "date") {
        cells += `<c r="${ref}" s="${this.#dateStyle}"><v>${UNIX_EPOCH_SERIAL + (v as number) / 86_400_000}</v></c>`;
      } else cells += `<c r="${ref}"><v>${v}</v></c>`;
    }
    // exceljs writes no element for a row without values, and spans every value given (nulls too).
    return cells === "" ? "" : `<row r="${r}" spans="1:${values.length}" x14ac:dyDescent="0.25">${cells}</row>`;
  }
}

/**
 * What the rows need of exceljs's streaming writers (exceljs 4.4 internals, not in its types):
 * the worksheet's own stream, which its header row opens (`<sheetData>`) when committed, and
 * the workbook's date style, registered on first use.
 */
export interface StreamingInternals {
  sheetStream: { write(text: string): unknown };
  dateStyle: number;
}

/** Commits `sheet`'s header row and reaches the internals above. */
export function openSheetData(workbook: unknown, sheet: Worksheet): StreamingInternals {
  sheet.getRow(1).commit();
  // Internals of exceljs's WorkbookWriter/WorksheetWriter (pinned 4.4.0; sheet_rows_test.ts
  // fails if they move): not in the published types.
  const sheetStream = (sheet as unknown as { stream?: StreamingInternals["sheetStream"] }).stream;
  const dateStyle = (workbook as { styles?: { dateStyleId?: number } }).styles?.dateStyleId;
  if (!sheetStream || typeof dateStyle !== "number") throw new Error("exceljs streaming internals not found");
  return { sheetStream, dateStyle };
}
