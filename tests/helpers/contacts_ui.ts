/** The contacts page's import and export, driven as a person would (shared by its tests and the admin end-to-end test). */
import { Buffer } from "node:buffer";
import ExcelJS from "exceljs";
import Papa from "papaparse";
import type { Page } from "playwright-core";

/** An .xlsx with the import's columns (and one the import ignores). */
export async function workbook(rows: [string, string][]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet("Contatos");
  sheet.addRow(["Nome", "Telefone", "Observação"]);
  for (const [name, phone] of rows) sheet.addRow([name, phone, "ignorada"]);
  return Buffer.from(await book.xlsx.writeBuffer());
}

/** Records every toast text the page shows (a progress toast lives only until the next one). */
export async function recordToasts(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen: string[] = [];
    (globalThis as unknown as { seenToasts: string[] }).seenToasts = seen;
    new MutationObserver(() => {
      for (const el of document.querySelectorAll(".toast")) {
        const text = el.textContent ?? "";
        if (!seen.includes(text)) seen.push(text);
      }
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
}

/** Picks `file` in the import dialog and sends it. */
export async function importThrough(page: Page, file: { name: string; mimeType: string; buffer: Buffer }): Promise<void> {
  await page.getByRole("button", { name: "Importar / Exportar" }).click();
  await page.getByRole("menuitem", { name: "Importar", exact: true }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Arquivo").setInputFiles(file);
  await dialog.getByTestId("import-send").click();
  await dialog.waitFor({ state: "detached" });
}

/** Exports through the dialog and returns the downloaded file's name and parsed rows. */
export async function exportThrough(page: Page): Promise<{ name: string; rows: string[][]; dialogText: string }> {
  await page.getByRole("button", { name: "Importar / Exportar" }).click();
  await page.getByRole("menuitem", { name: "Exportar" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByTestId("export-send").waitFor();
  const dialogText = await dialog.innerText();
  const [download] = await Promise.all([page.waitForEvent("download"), dialog.getByTestId("export-send").click()]);
  const text = (await Deno.readTextFile((await download.path())!)).replace(/^\uFEFF/, "");
  const rows = Papa.parse<string[]>(text, { delimiter: ";", skipEmptyLines: true }).data;
  return { name: download.suggestedFilename(), rows, dialogText };
}

