/**
 * The ticket report's spreadsheet (spec 002 §2.14 export) written row by row with exceljs's
 * streaming WorkbookWriter straight into the HTTP response: no workbook is built in memory,
 * no file is written. Inline strings (no shared-strings table, which would keep every text
 * until the end) and no styles. The data rows' XML is ours (sheet_rows.ts, the same bytes
 * exceljs writes, four times faster); exceljs writes the header, the package and the zip.
 *
 * Pace: exceljs writes a committed row into the zip without asking whether anyone reads, so
 * rows are produced in slices and the next slice waits until the bytes already zipped have
 * left for the client (a slow download holds the writer, not the server's memory).
 */
import { zoneOffset } from "../../domain/dashboard.ts";
import { PassThrough, Readable } from "node:stream";
import type { Ticket } from "../../domain/ticket.ts";
import { REPORT_SHEET_HEADERS, REPORT_STATUS_LABELS } from "../../domain/ticket_report.ts";
import type { TicketLookups } from "../../actors/tickets/view.ts";
import { reportNames } from "./ticket_report_row.ts";
import { type ColumnKind, openSheetData, SheetRows } from "./sheet_rows.ts";

/** The kinds of the sheet's columns (REPORT_SHEET_HEADERS' order). */
const COLUMN_KINDS: ColumnKind[] = ["number", "text", "text", "text", "text", "text", "text", "date", "date", "text"];

/** Rows written (as one string) between two checks of the output's backlog. */
const SLICE = 1024;
/** Bytes the zip may hold unread by the client before the writer waits. */
const BACKLOG = 1 << 20;

/** What the sheet needs to write one ticket. */
export interface SheetInput {
  tickets: readonly Ticket[];
  lookups: TicketLookups;
  lang: keyof typeof REPORT_SHEET_HEADERS;
  /** The app's origin, for the link column (`{origin}/tickets/{uuid}`). */
  origin: string;
  /** The company's zone: the dates are written on its wall clock (a sheet has no zones; #41). */
  timeZone?: string;
  /** Called with the error when writing fails midway (the response is then cut short). */
  onError?: (error: unknown) => void;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const tick = () => sleep(0);

/** The spreadsheet as a byte stream for a Response body. */
export async function reportSheetStream(input: SheetInput): Promise<ReadableStream<Uint8Array>> {
  // Loaded on first use: exceljs costs tens of MB of RSS a server that never exports does not need.
  const { default: Excel } = await import("exceljs");
  const out = new PassThrough({ highWaterMark: 64 * 1024 });
  const workbook = new Excel.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false });
  const sheet = workbook.addWorksheet("Tickets");
  sheet.columns = REPORT_SHEET_HEADERS[input.lang].map((header, i) => ({
    header,
    width: [8, 20, 28, 16, 20, 18, 11, 18, 18, 50][i],
  }));
  const labels = REPORT_STATUS_LABELS[input.lang];
  const { sheetStream, dateStyle } = openSheetData(workbook, sheet);
  const rows = new SheetRows(COLUMN_KINDS, dateStyle);
  const zone = input.timeZone;
  const local = (ms: number) => (zone ? ms + zoneOffset(ms, zone) : ms);
  (async () => {
    const { tickets, lookups, origin } = input;
    let xml = "";
    for (let i = 0; i < tickets.length; i++) {
      const t = tickets[i];
      const names = reportNames(t, lookups);
      xml += rows.row(i + 2, [
        t.id,
        names.whatsappName,
        names.contactName,
        names.contactNumber,
        names.userName,
        names.queueName,
        labels[t.status],
        local(t.createdAt),
        t.closedAt === null ? null : local(t.closedAt),
        `${origin}/tickets/${t.uuid}`,
      ]);
      if (i % SLICE === SLICE - 1) {
        sheetStream.write(xml);
        xml = "";
        await tick();
        while ((out.readableLength > BACKLOG || out.writableNeedDrain) && !out.destroyed) await sleep(2);
        if (out.destroyed) return;
      }
    }
    if (xml) sheetStream.write(xml);
    sheet.commit();
    await workbook.commit();
  })().catch((error) => {
    input.onError?.(error);
    out.destroy(error instanceof Error ? error : new Error(String(error)));
  });
  return Readable.toWeb(out) as ReadableStream<Uint8Array>;
}
