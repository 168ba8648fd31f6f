/**
 * The rows SheetRows writes (sheet_rows.ts) are the bytes exceljs's own row writer produces
 * for the same values (awkward texts, empty and missing cells, dates, numbers): two streamed
 * workbooks, one through `addRow`, one through SheetRows, give the same worksheet XML, and the
 * file reads back with exceljs.
 */
import assert from "node:assert/strict";
import { PassThrough } from "node:stream";
import Excel from "exceljs";
import JSZip from "jszip";
import { type CellValue, type ColumnKind, openSheetData, SheetRows, xmlText } from "./sheet_rows.ts";

const KINDS: ColumnKind[] = ["number", "text", "text", "date", "date", "text"];
const AT = Date.UTC(2026, 0, 2, 3, 4, 5, 678);
const ROWS: CellValue[][] = [
  [1, "plain", "", AT, null, "http://x/tickets/u-1"],
  [22, `<b>&"q"'a'</b>`, "tab\tnew\nline\rcr", AT + 1, AT + 86_400_000, "ctl\u0001\u0008\u000b\u001f\u007fend"],
  [333, "acentuação 🎉 中文", null, AT - 3_000_000_000_000, AT, null],
  [null, null, "only middle", null, null, null],
  [4.5, "x", "y", 0, AT, "z"],
];

async function sheetXml(write: (workbook: unknown, sheet: Excel.Worksheet) => void | Promise<void>): Promise<{ xml: string; bytes: Uint8Array }> {
  const out = new PassThrough();
  const chunks: Uint8Array[] = [];
  out.on("data", (c: Uint8Array) => chunks.push(c));
  const ended = new Promise((resolve) => out.on("end", resolve));
  const workbook = new Excel.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false });
  const sheet = workbook.addWorksheet("T");
  sheet.columns = KINDS.map((_, i) => ({ header: `H${i}`, width: 10 }));
  await write(workbook, sheet);
  sheet.commit();
  await workbook.commit();
  await ended;
  const bytes = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.length;
  }
  const zip = await JSZip.loadAsync(bytes);
  return { xml: await zip.file("xl/worksheets/sheet1.xml")!.async("string"), bytes };
}

Deno.test("SheetRows writes the rows exceljs writes, and the file reads back", async () => {
  const theirs = await sheetXml((_, sheet) => {
    for (const values of ROWS) {
      sheet.addRow(values.map((v, i) => KINDS[i] === "date" && v !== null ? new Date(v as number) : v)).commit();
    }
  });
  const ours = await sheetXml((workbook, sheet) => {
    const { sheetStream, dateStyle } = openSheetData(workbook, sheet);
    const rows = new SheetRows(KINDS, dateStyle);
    sheetStream.write(ROWS.map((values, i) => rows.row(i + 2, values)).join(""));
  });
  assert.equal(ours.xml, theirs.xml);
  const book = new Excel.Workbook();
  await book.xlsx.load(ours.bytes.buffer as ArrayBuffer);
  const read = book.worksheets[0].getRow(3).values as unknown[];
  assert.equal(read[2], `<b>&"q"'a'</b>`);
  assert.ok(read[4] instanceof Date && (read[4] as Date).getTime() === AT + 1);
});

Deno.test("xmlText() escapes the five entities and drops control characters but tab, LF and CR", () => {
  assert.equal(xmlText("a<b>&\"'"), "a&lt;b&gt;&amp;&quot;&apos;");
  assert.equal(xmlText("\t\n\r\u0000\u001f\u007fok"), "\t\n\rok");
  assert.equal(xmlText("plain"), "plain");
});
