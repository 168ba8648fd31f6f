/**
 * The contact export (spec 001 §2.14, §7, §9): GET /exportar/baixar with `tags`, `queueIds`
 * and `contactIds` as JSON strings writes the semicolon CSV and answers its `filePath`; that
 * file needs the bearer token like every call, so it is fetched here and handed to the
 * browser as a download named `contacts.csv`.
 */
import { get, query, storedToken } from "../lib/api.ts";

/** What the export is narrowed to (all empty: every contact). */
export interface ExportFilter {
  tags: number[];
  queueIds: number[];
  contactIds: number[];
}

/** The name the browser saves the export under. */
export const EXPORT_FILE_NAME = "contacts.csv";

/** Writes the export on the server, then downloads it as contacts.csv. */
export async function exportContacts(filter: ExportFilter): Promise<void> {
  const { filePath } = await get<{ filePath: string }>(`/exportar/baixar${query({
    tags: JSON.stringify(filter.tags),
    queueIds: JSON.stringify(filter.queueIds),
    contactIds: JSON.stringify(filter.contactIds),
  })}`);
  const response = await fetch(filePath, { headers: { authorization: `Bearer ${storedToken()}` }, credentials: "include" });
  if (!response.ok) throw new Error(`GET ${filePath}: HTTP ${response.status}`);
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement("a");
  link.href = url;
  link.download = EXPORT_FILE_NAME;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
