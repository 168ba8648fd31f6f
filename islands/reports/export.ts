/**
 * The report's spreadsheet download: one GET of /ticketreport/reports/export with the
 * applied filters (never a 9,999,999-row page), read as a stream so the page can show how
 * far it is, then saved under the server's file name. The response's `x-total-count` says
 * how many rows the file holds; the bytes expected are estimated from it
 * (EXPORT_BYTES_PER_ROW, measured on bench/report_export.ts's sheets), so the bar never
 * claims more than 95 % before the last byte.
 */
import { refreshToken, storedToken } from "../lib/api.ts";

/** Bytes of the compressed sheet per row: 14.3 MB for 100,000 rows in bench/report_export.ts. */
export const EXPORT_BYTES_PER_ROW = 143;

/** Where a download is. */
export interface ExportProgress {
  total: number;
  received: number;
  /** 0…1, an estimate until done. */
  fraction: number;
}

function request(path: string): Promise<Response> {
  const token = storedToken();
  return fetch(path, { headers: token ? { authorization: `Bearer ${token}` } : {}, credentials: "include" });
}

/** Downloads the sheet of `queryString`, reporting progress; throws the error body on failure. */
export async function downloadReport(queryString: string, lang: string, onProgress: (p: ExportProgress) => void): Promise<void> {
  const path = `/ticketreport/reports/export${queryString}${queryString ? "&" : "?"}lang=${lang}`;
  let response = await request(path);
  if (response.status === 403 && await refreshToken()) response = await request(path);
  if (!response.ok || !response.body) throw await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
  const total = Number(response.headers.get("x-total-count") ?? 0);
  const expected = Math.max(1, total * EXPORT_BYTES_PER_ROW);
  const chunks: Uint8Array[] = [];
  let received = 0;
  const reader = response.body.getReader();
  onProgress({ total, received, fraction: 0 });
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    chunks.push(value);
    received += value.byteLength;
    onProgress({ total, received, fraction: Math.min(0.95, received / expected) });
  }
  onProgress({ total, received, fraction: 1 });
  const name = /filename="([^"]+)"/.exec(response.headers.get("content-disposition") ?? "")?.[1] ?? "relatorio.xlsx";
  const url = URL.createObjectURL(new Blob(chunks as BlobPart[], { type: response.headers.get("content-type") ?? "" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
