/**
 * The dashboard's files: the CSVs of spec 000 §7 (`/exportar/baixar/dash` and
 * `/exportar/baixar/dash/ratings`: the summary by user and the ratings table) and the page's
 * Exportar spreadsheet (.xlsx, exceljs, built in memory: a few hundred rows at most).
 * Column titles are the cards' Portuguese texts (spec 000 §2), as the other exports.
 */
import { formatInZone, utcOffsetText } from "../../domain/zoned_time.ts";
import Papa from "papaparse";
import type { DashboardResponse, Duration, HourPoint } from "../../domain/dashboard.ts";
import { HOUR_LABELS } from "../../domain/dashboard.ts";

const NONE = "—";

function duration(d: Duration): string {
  const two = (n: number) => String(n).padStart(2, "0");
  return `${two(d.hours)}:${two(d.minutes)}:${two(d.seconds)}`;
}

/** A cell that a spreadsheet would read as a formula is neutralised. */
function safe(value: string | number): string | number {
  return typeof value === "string" && /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

function csv(rows: Array<Array<string | number>>): string {
  return `\uFEFF${Papa.unparse(rows.map((r) => r.map(safe)), { delimiter: ";", newline: "\r\n" })}\r\n`;
}

/** The summary cards as [title, value] pairs. */
export function summaryRows(v: DashboardResponse): Array<[string, string | number]> {
  return [
    // The range on the company's clock, with the zone named (#41), as the page shows it.
    ["De", formatInZone(Date.parse(v.dateFrom), v.timeZone)],
    ["Até", formatInZone(Date.parse(v.dateTo), v.timeZone)],
    ["Fuso horário", `${v.timeZone} (${utcOffsetText(Date.parse(v.dateFrom), v.timeZone)})`],
    ["Em atendimento", v.openTicketsCount],
    ["Aguardando atendimento", v.pendingTicketsCount],
    ["Atendimentos sem fila", v.noQueueTicketsCount],
    ["Atendentes online", v.onlineUser.count],
    ["Atendimentos Receptivos", v.totalCreatedTicketsCount.count],
    ["Atendimentos Aceitos", v.totalStartedTicketsCount.count],
    ["Atendimentos Abertos", v.openTicketsCount + v.pendingTicketsCount],
    ["Atendimentos Finalizados", v.finishedTicketCount.count],
    ["Total de Msg Enviadas", v.sentMessagesCount],
    ["Total de Msg Recebidas", v.receivedMessagesCount],
    ["Novos Leads", v.newLeads.count],
    ["Tempo Médio de Atendimento", duration(v.averageResponseTime)],
    ["Tempo Médio de Espera", duration(v.averageWaitingTime)],
    ["Avaliações", v.ratingsCount],
    ["Avaliação média", v.averageRating],
  ];
}

const USER_HEADERS = [
  "Atendente",
  "Em atendimento",
  "Atendimentos Aceitos",
  "Atendimentos Finalizados",
  "Total de Msg Enviadas",
  "Tempo Médio de Atendimento",
  "Tempo Médio de Espera",
  "Avaliação média",
];

/** One row per user of the range (a user with no number at all is left out). */
export function userRows(v: DashboardResponse): Array<Array<string | number>> {
  const byId = new Map<number | null, Array<string | number>>();
  const row = (id: number | null, name: string) => {
    let r = byId.get(id);
    if (!r) byId.set(id, r = [name || NONE, 0, 0, 0, 0, "", "", ""]);
    return r;
  };
  for (const x of v.openTicketsCountByUser) row(x.user.id, x.user.name)[1] = x.ticketCount;
  for (const x of v.startedTicketsCountByUser) row(x.user.id, x.user.name)[2] = x.ticketCount;
  for (const x of v.closedTicketsCountByUser) row(x.user.id, x.user.name)[3] = x.ticketCount;
  for (const x of v.sentMessagesCountByUser) row(x.user.id, x.user.name)[4] = x.count;
  for (const x of v.averageResponseTimeByUser) row(x.user.id, x.user.name)[5] = duration(x);
  for (const x of v.averageWaitingTimeByUser) row(x.user.id, x.user.name)[6] = duration(x);
  for (const x of v.averageRatingByUser) row(x.user.id, x.user.name)[7] = x.averageRating;
  return [...byId.values()].sort((a, b) => String(a[0]).localeCompare(String(b[0])));
}

const RATING_HEADERS = ["Nota", "Atendente", "Data", "Cliente", "Número", "Ticket"];

function ratingRows(v: DashboardResponse, origin: string): Array<Array<string | number>> {
  return v.ratings.map((r) => [
    r.rate,
    r.user?.name ?? NONE,
    formatInZone(Date.parse(r.createdAt), v.timeZone),
    r.contact?.name ?? NONE,
    r.contact?.number ?? "",
    r.ticket ? `${origin}/tickets/${r.ticket.uuid}` : "",
  ]);
}

/** `/exportar/baixar/dash`'s CSV: the cards, then one line per user. */
export function dashCsv(v: DashboardResponse): string {
  return csv([
    ...summaryRows(v),
    [],
    USER_HEADERS,
    ...userRows(v),
  ]);
}

/** `/exportar/baixar/dash/ratings`'s CSV: the ratings table of the range. */
export function ratingsCsv(v: DashboardResponse, origin: string): string {
  return csv([RATING_HEADERS, ...ratingRows(v, origin)]);
}

function hourlySheetRows(v: DashboardResponse): Array<Array<string | number>> {
  const at = (rows: HourPoint[], i: number) => rows[i]?.count ?? 0;
  return HOUR_LABELS.map((hour, i) => [
    hour,
    at(v.totalCreatedTicketsCount.rows, i),
    at(v.totalStartedTicketsCount.rows, i),
    at(v.finishedTicketCount.rows, i),
  ]);
}

/** The page's Exportar: a workbook with the cards, users, queues, hours and ratings. */
export async function dashXlsx(v: DashboardResponse, origin: string): Promise<Uint8Array<ArrayBuffer>> {
  // Loaded on first use: exceljs costs tens of MB a server that never exports does not need.
  const { default: Excel } = await import("exceljs");
  const book = new Excel.Workbook();
  const sheet = (name: string, rows: Array<Array<string | number>>, widths: number[]) => {
    const ws = book.addWorksheet(name);
    for (const r of rows) ws.addRow(r.map(safe));
    ws.columns.forEach((c, i) => c.width = widths[i] ?? 16);
    ws.getRow(1).font = { bold: true };
  };
  sheet("Resumo", [["Indicador", "Valor"], ...summaryRows(v)], [30, 26]);
  sheet("Atendentes", [USER_HEADERS, ...userRows(v)], [28]);
  const queues = new Map<number | null, Array<string | number>>();
  const qrow = (id: number | null, name: string) => {
    let r = queues.get(id);
    if (!r) queues.set(id, r = [name || "Sem fila", 0, 0, 0, 0]);
    return r;
  };
  for (const x of v.openPendingTicketsCountByQueue) {
    qrow(x.queue.id, x.queue.name)[x.status === "open" ? 1 : 2] = x.ticketCount;
  }
  for (const x of v.createdTicketsCountByQueue) qrow(x.queue.id, x.queue.name)[3] = x.ticketCount;
  for (const x of v.closedTicketsCountByQueue) qrow(x.queue.id, x.queue.name)[4] = x.ticketCount;
  sheet("Filas", [
    ["Fila", "Em atendimento", "Aguardando atendimento", "Atendimentos Receptivos", "Atendimentos Finalizados"],
    ...queues.values(),
  ], [24]);
  sheet("Por hora", [["Hora", "Receptivos", "Aceitos", "Finalizados"], ...hourlySheetRows(v)], [10]);
  sheet("Avaliações", [RATING_HEADERS, ...ratingRows(v, origin)], [8, 24, 26, 24, 18, 60]);
  return new Uint8Array(await book.xlsx.writeBuffer());
}
