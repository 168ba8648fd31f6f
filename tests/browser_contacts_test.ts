/**
 * Browser tests of /contacts (spec 001 §2.14) on the admin kit: the first page in the
 * server's HTML, create/edit/block/delete with the spec's validation texts and toasts,
 * select-all and 'Excluir todos', 'Adicionar a carteira', live rows from another user, the
 * plain user's view without admin actions, phone width; import of a real .xlsx and .csv
 * (and of 1,000 contacts, the end-to-end flow) and the contacts.csv export; the two
 * admin row actions, the phone-book import and a legacy Excel 97 .xls (issue #36).
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import Papa from "papaparse";
import * as XLSX from "@e965/xlsx";
import { withServer } from "./helpers/server.ts";
import { hasChromium, launchBrowser, loginToShell, screenshot } from "./helpers/browser.ts";
import { signedInPage, withServerAndBrowser } from "./helpers/browser_session.ts";
import { exportThrough, importThrough, recordToasts, workbook } from "./helpers/contacts_ui.ts";

const opts = { ignore: !hasChromium(), sanitizeOps: false, sanitizeResources: false };

Deno.test({
  name: "ContactsPage renders on the server, validates, creates, edits, blocks, assigns, deletes (one and all) and patches rows live",
  ...opts,
  async fn() {
    await withServer(async (server) => {
      const supervisor = await server.login("supervisor@demo.local");
      const seeded = await supervisor.post("/contacts", { name: "Primeiro Contato", number: "5511900000001" });
      assert.equal(seeded.status, 200, JSON.stringify(seeded.body));
      const chrome = await launchBrowser();
      try {
        const page = await (await chrome.newContext()).newPage();
        await loginToShell(page, server.url, "admin@demo.local");

        // The server's HTML already holds the first page and the total.
        const total = (await supervisor.get("/contacts/")).body.count as number;
        const html = await page.evaluate(async () => (await fetch("/contacts", { headers: { accept: "text/html" } })).text());
        assert.match(html, /Primeiro Contato/);
        await page.goto(`${server.url}/contacts`);
        const table = page.getByTestId("contacts-table");
        await table.getByText("Primeiro Contato").waitFor({ timeout: 20_000 });
        await page.getByRole("heading", { name: `Contatos (${total})` }).waitFor();

        // Validation with the schema's texts, then a create with extra info.
        await page.getByRole("button", { name: "Adicionar", exact: true }).click();
        const dialog = page.getByRole("dialog");
        await dialog.getByLabel("Nome", { exact: true }).fill("A");
        await dialog.getByLabel("Número").fill("123");
        await dialog.getByLabel("E-mail").fill("x@");
        await dialog.getByTestId("contact-save").click();
        // The check awaits the lazily loaded schemas: the messages come after the click returns.
        await dialog.getByText("Muito curto!").nth(1).waitFor({ timeout: 10_000 });
        assert.equal(await dialog.getByText("Muito curto!").count(), 2);
        await dialog.getByText("E-mail inválido").waitFor();
        await screenshot(page, "contacts_dialog");
        await dialog.getByLabel("Nome", { exact: true }).fill("Novo Cliente");
        await dialog.getByLabel("Número").fill("+55 (11) 97777-0001");
        await dialog.getByLabel("E-mail").fill("novo@example.com");
        await dialog.getByRole("button", { name: "Adicionar informação" }).click();
        await dialog.getByLabel("Nome do campo").fill("CPF");
        await dialog.getByLabel("Valor").fill("123.456.789-00");
        await dialog.getByTestId("contact-save").click();
        await dialog.waitFor({ state: "detached", timeout: 10_000 });
        await table.getByText("Novo Cliente").waitFor();
        await page.getByRole("heading", { name: `Contatos (${total + 1})` }).waitFor();
        const created = (await supervisor.get("/contacts/?searchParam=Novo Cliente")).body.contacts[0];
        assert.equal(created.number, "5511977770001");
        assert.deepEqual(created.extraInfo, [{ name: "CPF", value: "123.456.789-00" }]);

        // Edit.
        await table.locator("tr", { hasText: "Novo Cliente" }).getByRole("button", { name: "Editar" }).click();
        await dialog.getByLabel("Nome", { exact: true }).fill("Novo Cliente Editado");
        await dialog.getByTestId("contact-save").click();
        await table.getByText("Novo Cliente Editado").waitFor({ timeout: 10_000 });

        // Block and unblock with the spec's toasts.
        const row = table.locator("tr", { hasText: "Novo Cliente Editado" });
        await row.getByRole("button", { name: "Bloquear contato" }).click();
        await page.getByText("Contato bloqueado").waitFor({ timeout: 10_000 });
        await row.getByRole("img", { name: "Bloqueado" }).waitFor();
        assert.equal((await supervisor.get(`/contacts/${created.id}`)).body.active, false);
        await row.getByRole("button", { name: "Desbloquear contato" }).click();
        await page.getByText("Contato desbloqueado").waitFor({ timeout: 10_000 });
        await row.getByRole("img", { name: "Ativo" }).waitFor();

        // Another user's changes arrive live.
        await supervisor.post("/contacts", { name: "Do Outro Lado", number: "5511900000002" });
        await table.getByText("Do Outro Lado").waitFor({ timeout: 10_000 });
        await supervisor.put(`/contacts/${seeded.body.id}`, { name: "Primeiro Contato Editado" });
        await table.getByText("Primeiro Contato Editado").waitFor({ timeout: 10_000 });

        // Delete one with the §8 confirmation.
        await table.locator("tr", { hasText: "Do Outro Lado" }).getByRole("button", { name: "Excluir" }).click();
        await page.getByRole("dialog").getByText("Exclusão de Registro").waitFor();
        await page.getByText("Deseja realmente excluir esse registro?").waitFor();
        await page.getByTestId("confirm").click();
        await table.getByText("Do Outro Lado").waitFor({ state: "detached", timeout: 10_000 });
        assert.equal((await supervisor.get("/contacts/?searchParam=Do Outro Lado")).body.count, 0);

        // Search, select all, add the selection to a wallet, then delete all of it.
        for (let i = 1; i <= 3; i++) await supervisor.post("/contacts", { name: `Lote ${i}`, number: `551190000010${i}` });
        await page.getByRole("searchbox").fill("Lote");
        await table.getByText("Primeiro Contato Editado").waitFor({ state: "detached", timeout: 10_000 });
        await table.getByText("Lote 3").waitFor();
        await page.getByRole("heading", { name: "Contatos (3)" }).waitFor();
        await table.getByLabel("Selecionar todos").check();
        await page.getByRole("button", { name: "Adicionar a carteira" }).click();
        await dialog.getByText("3 contato(s) selecionado(s)").waitFor();
        await dialog.getByTestId("wallet-owner").selectOption({ label: "Alice Atendente" });
        await dialog.getByTestId("wallet-save").click();
        await dialog.waitFor({ state: "detached", timeout: 10_000 });
        await table.locator("tr", { hasText: "Lote 2" }).getByText("Alice Atendente").waitFor({ timeout: 10_000 });
        const lote = (await supervisor.get("/contacts/?searchParam=Lote")).body.contacts;
        assert.ok(lote.every((c: { walleteUser: { name: string } }) => c.walleteUser?.name === "Alice Atendente"));
        await screenshot(page, "contacts");
        await page.getByRole("button", { name: "Excluir todos" }).click();
        await page.getByText("Deseja realmente excluir os 3 contatos selecionados?").waitFor();
        await page.getByTestId("confirm").click();
        await table.getByText("Lote 1").waitFor({ state: "detached", timeout: 10_000 });
        assert.equal((await supervisor.get("/contacts/?searchParam=Lote")).body.count, 0);
        await page.getByRole("heading", { name: "Contatos (0)" }).waitFor();

        // Phone width: the page still fits.
        await page.setViewportSize({ width: 390, height: 800 });
        await page.reload();
        await table.getByText("Primeiro Contato Editado").waitFor({ timeout: 20_000 });
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - globalThis.innerWidth);
        assert.ok(overflow <= 0, `no page-wide horizontal scroll at 390 px (${overflow})`);
        await screenshot(page, "contacts_phone");
        await page.setViewportSize({ width: 1280, height: 800 });

        // Opening a ticket goes to /tickets/{uuid}.
        await table.locator("tr", { hasText: "Primeiro Contato Editado" }).getByRole("button", { name: "Abrir ticket" }).click();
        await page.waitForURL(/\/tickets\/[0-9a-f-]{36}$/, { timeout: 20_000 });
        const uuid = page.url().split("/").pop();
        const active = (await supervisor.get(`/contacts/${seeded.body.id}/active-ticket`)).body;
        assert.equal(active.uuid, uuid);

        // A plain user lists contacts but gets none of the admin-only actions.
        const agent = await (await chrome.newContext()).newPage();
        await loginToShell(agent, server.url, "agent@demo.local");
        await agent.goto(`${server.url}/contacts`);
        const agentTable = agent.getByTestId("contacts-table");
        await agentTable.getByText("Primeiro Contato Editado").waitFor({ timeout: 20_000 });
        await agentTable.getByRole("button", { name: "Editar" }).first().waitFor();
        // The last interaction is the ticket just opened (HH:mm today).
        await agentTable.locator("tr", { hasText: "Primeiro Contato Editado" }).getByText(/^\d{2}:\d{2}$/).waitFor();
        assert.equal(await agent.getByRole("button", { name: "Adicionar a carteira" }).count(), 0);
        assert.equal(await agent.getByRole("button", { name: "Excluir todos" }).count(), 0);
        assert.equal(await agentTable.getByRole("button", { name: "Atribuir usuário" }).count(), 0);
        assert.equal(await agentTable.getByRole("button", { name: "Adicionar à minha carteira" }).count(), 0);
        assert.equal(await agentTable.getByRole("button", { name: "Excluir" }).count(), 0);
        await agent.getByRole("button", { name: "Importar / Exportar" }).click();
        await agent.getByRole("menuitem", { name: "Importar", exact: true }).waitFor();
        assert.equal(await agent.getByRole("menuitem", { name: "Exportar" }).count(), 0);
      } finally {
        await chrome.close();
      }
    });
  },
});

Deno.test({
  name: "ContactsPage imports a real .xlsx and .csv with the progress toasts, 1,000 rows included, and exports contacts.csv",
  ...opts,
  async fn() {
    await withServer(async (server) => {
      const admin = await server.login("supervisor@demo.local");
      const chrome = await launchBrowser();
      try {
        const page = await (await chrome.newContext({ acceptDownloads: true })).newPage();
        await loginToShell(page, server.url, "admin@demo.local");
        await page.goto(`${server.url}/contacts`);
        const table = page.getByTestId("contacts-table");
        await table.waitFor({ timeout: 20_000 });
        await recordToasts(page);

        // The instruction dialog and its own check.
        await page.getByRole("button", { name: "Importar / Exportar" }).click();
        await page.getByRole("menuitem", { name: "Importar", exact: true }).click();
        const dialog = page.getByRole("dialog");
        await dialog.getByText("Colunas obrigatórias: Nome e Telefone.").waitFor();
        await dialog.getByText("Telefone no formato internacional, sem espaços nem símbolos", { exact: false }).waitFor();
        await dialog.getByTestId("import-send").click();
        await dialog.getByText("Escolha um arquivo!").waitFor();
        await page.evaluate(() => (document.documentElement.dataset.theme = "dark"));
        await screenshot(page, "contacts_import_dark");
        await page.evaluate(() => (document.documentElement.dataset.theme = "light"));
        await dialog.getByRole("button", { name: "Cancelar" }).click();

        // A file without the required columns: the server's reason as a toast.
        const noPhone = Papa.unparse([["Nome", "Cidade"], ["Sem Telefone", "Recife"]]);
        await importThrough(page, { name: "sem_telefone.csv", mimeType: "text/csv", buffer: Buffer.from(noPhone) });
        await page.getByText("O arquivo precisa das colunas Nome e Telefone").waitFor({ timeout: 10_000 });

        // .xlsx made by exceljs.
        const xlsx = await workbook([["Planilha Ana", "5511981110001"], ["Planilha Bruno", "5511981110002"]]);
        await importThrough(page, { name: "contatos.xlsx", mimeType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", buffer: xlsx });
        await page.getByText("Importação concluída! Contatos Válidos: 2").waitFor({ timeout: 20_000 });
        await table.getByText("Planilha Bruno").waitFor({ timeout: 10_000 });

        // .csv made by papaparse.
        const csv = Papa.unparse([["Nome", "Telefone", "Cidade"], ["Texto Carla", "5511981110003", "Recife"], ["Texto Davi", "5511981110004", "Natal"]]);
        await importThrough(page, { name: "contatos.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
        await page.getByText("Importação concluída! Contatos Válidos: 2").waitFor({ timeout: 20_000 });
        await table.getByText("Texto Davi").waitFor({ timeout: 10_000 });
        assert.equal((await admin.get("/contacts/?searchParam=5511981110003")).body.contacts[0].name, "Texto Carla");

        // Export everything: contacts.csv, semicolons, the imported contacts inside.
        const all = await exportThrough(page);
        assert.equal(all.name, "contacts.csv");
        assert.match(all.dialogText, /Tags/);
        assert.match(all.dialogText, /Filas/);
        assert.deepEqual(all.rows[0], ["Nome", "Telefone", "Email"]);
        for (const name of ["Planilha Ana", "Planilha Bruno", "Texto Carla", "Texto Davi"]) {
          assert.ok(all.rows.some((r) => r[0] === name), `${name} exported`);
        }
        assert.deepEqual(all.rows.find((r) => r[0] === "Texto Carla"), ["Texto Carla", "5511981110003", ""]);

        // Export of a selection: no filters, exactly the selected contact.
        await page.getByRole("searchbox").fill("Texto Davi");
        await table.getByText("Planilha Ana").waitFor({ state: "detached", timeout: 10_000 });
        await table.locator("tr", { hasText: "Texto Davi" }).getByLabel("Selecionar linha").check();
        const picked = await exportThrough(page);
        assert.match(picked.dialogText, /Serão exportados os 1 contatos selecionados/);
        assert.doesNotMatch(picked.dialogText, /Filas/);
        assert.deepEqual(picked.rows, [["Nome", "Telefone", "Email"], ["Texto Davi", "5511981110004", ""]]);
        await page.getByRole("searchbox").fill("");
        await table.getByText("Planilha Ana").waitFor({ timeout: 10_000 });

        // 'Import all chats' asks first.
        await page.getByRole("button", { name: "Importar / Exportar" }).click();
        await page.getByRole("menuitem", { name: "Importar todos os chats" }).click();
        await page.getByText("Deseja importar como contatos todos os chats da conexão padrão?").waitFor();
        await page.getByRole("dialog").getByRole("button", { name: "Cancelar" }).click();

        // The end-to-end flow: 1,000 contacts from an .xlsx, through the browser.
        const before = (await admin.get("/contacts/")).body.count as number;
        const big = await workbook(Array.from({ length: 1000 }, (_, i) => [`Massa ${String(i).padStart(4, "0")}`, `55119${String(i).padStart(8, "0")}`]));
        const started = performance.now();
        await importThrough(page, { name: "mil.xlsx", mimeType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", buffer: big });
        await page.getByText("Importação concluída! Contatos Válidos: 1000").waitFor({ timeout: 60_000 });
        const imported = performance.now() - started;
        await page.getByRole("heading", { name: `Contatos (${before + 1000})` }).waitFor({ timeout: 20_000 });
        const settled = performance.now() - started;
        console.log(`1,000-contact .xlsx import: toast after ${imported.toFixed(0)} ms, list settled after ${settled.toFixed(0)} ms`);
        assert.equal((await admin.get("/contacts/?searchParam=Massa")).body.count, 1000);
        const seen = await page.evaluate(() => (globalThis as unknown as { seenToasts: string[] }).seenToasts);
        assert.ok(seen.some((s) => /Importando contatos \(\d+\/1000\)/.test(s)), `progress toast seen: ${seen.join(" | ")}`);
      } finally {
        await chrome.close();
      }
    });
  },
});

Deno.test({
  name: "ContactsPage counts an import once when its live events reach the page after the upload's answer",
  ...opts,
  async fn() {
    await withServer(async (server) => {
      const admin = await server.login("supervisor@demo.local");
      const chrome = await launchBrowser();
      try {
        const context = await chrome.newContext();
        // Every socket message reaches the page 800 ms late (in order), as on a slow link or
        // a busy server: the upload's answer then comes before the import's create events.
        await context.addInitScript(() => {
          const own = Object.getOwnPropertyDescriptor(WebSocket.prototype, "onmessage")!;
          Object.defineProperty(WebSocket.prototype, "onmessage", {
            configurable: true,
            get() {
              return own.get!.call(this);
            },
            set(handler: ((event: MessageEvent) => void) | null) {
              own.set!.call(this, handler && ((event: MessageEvent) => setTimeout(() => handler.call(this, event), 800)));
            },
          });
        });
        const page = await context.newPage();
        await loginToShell(page, server.url, "admin@demo.local");
        await page.goto(`${server.url}/contacts`);
        await page.getByTestId("contacts-table").waitFor({ timeout: 20_000 });
        const before = (await admin.get("/contacts/")).body.count as number;
        const rows = Array.from({ length: 30 }, (_, i) => [`Atrasado ${String(i).padStart(2, "0")}`, `55119700000${String(i).padStart(2, "0")}`]);
        await importThrough(page, { name: "atrasados.csv", mimeType: "text/csv", buffer: Buffer.from(Papa.unparse([["Nome", "Telefone"], ...rows])) });
        await page.getByText("Importação concluída! Contatos Válidos: 30").waitFor({ timeout: 20_000 });
        const heading = page.getByRole("heading", { name: /^Contatos \(\d+\)$/ });
        await page.getByRole("heading", { name: `Contatos (${before + 30})` }).waitFor({ timeout: 10_000 });
        // Long after every delayed event has arrived, the count is still the server's.
        await page.waitForTimeout(2_000);
        assert.equal(await heading.textContent(), `Contatos (${before + 30})`);
        assert.equal((await admin.get("/contacts/")).body.count, before + 30);
      } finally {
        await chrome.close();
      }
    });
  },
});

Deno.test({
  name: "ContactsPage: the admin's two row actions (assign a user, add to my wallet), the phone-book import button and a legacy .xls (Excel 97)",
  ...opts,
  async fn() {
    await withServerAndBrowser(async (server, chrome) => {
      const supervisor = await server.login("supervisor@demo.local");
      const seeded = await supervisor.post("/contacts", { name: "Carteira Livre", number: "5511900000777" });
      assert.equal(seeded.status, 200, JSON.stringify(seeded.body));
      const adminId = server.demo!.logins.find((l) => l.email === "admin@demo.local")!.id;
      const agentId = server.demo!.logins.find((l) => l.email === "agent@demo.local")!.id;
      const page = await signedInPage(chrome, server, "admin@demo.local");
      await page.goto(`${server.url}/contacts`);
      const table = page.getByTestId("contacts-table");
      const row = table.locator("tr", { hasText: "Carteira Livre" });
      await row.waitFor({ timeout: 20_000 });

      // Assign users: any user's wallet, through the user choice.
      await row.getByRole("button", { name: "Atribuir usuário" }).click();
      const dialog = page.getByRole("dialog");
      await dialog.getByTestId("wallet-owner").selectOption({ label: "Alice Atendente" });
      await dialog.getByTestId("wallet-save").click();
      await dialog.waitFor({ state: "detached", timeout: 10_000 });
      await row.getByText("Alice Atendente").waitFor({ timeout: 10_000 });
      assert.equal((await supervisor.get(`/contacts/${seeded.body.id}`)).body.walleteUserId, agentId);

      // Add to wallet: one click puts it in the admin's own wallet; then there is nothing left to add.
      await row.getByRole("button", { name: "Adicionar à minha carteira" }).click();
      await page.getByText("Contato adicionado à sua carteira!").waitFor({ timeout: 10_000 });
      await row.getByText("Ana Admin").waitFor({ timeout: 10_000 });
      assert.equal((await supervisor.get(`/contacts/${seeded.body.id}`)).body.walleteUserId, adminId);
      assert.equal(await row.getByRole("button", { name: "Já está na sua carteira" }).isDisabled(), true);
      await screenshot(page, "contacts_row_actions");

      // The phone's address book (POST /contacts/import of the default connection), after a confirmation.
      await page.getByRole("button", { name: "Importar / Exportar" }).click();
      await page.getByRole("menuitem", { name: "Importar contatos do telefone" }).click();
      const confirm = page.getByRole("dialog");
      await confirm.getByText("Deseja importar os contatos da agenda do telefone da conexão padrão?").waitFor();
      await confirm.getByRole("button", { name: "Confirmar" }).click();
      await page.getByText("Importação concluída! Contatos Válidos: 6").waitFor({ timeout: 20_000 });
      await table.getByText("Mariana Souza").waitFor({ timeout: 10_000 });
      assert.equal((await supervisor.get("/contacts/?searchParam=Beatriz Rocha")).body.count, 1);

      // A legacy binary .xls, as Excel 97–2003 saves it (BIFF8, written here by SheetJS).
      const book = XLSX.utils.book_new();
      XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([["Nome", "Telefone"], ["Excel Antigo", 5511977770101], ["Excel Velho", 5511977770102], ["Excel Raro", 5511977770103]]), "Plan1");
      const xls = Buffer.from(XLSX.write(book, { type: "array", bookType: "biff8" }) as ArrayBuffer);
      await importThrough(page, { name: "antiga.xls", mimeType: "application/vnd.ms-excel", buffer: xls });
      await page.getByText("Importação concluída! Contatos Válidos: 3").waitFor({ timeout: 20_000 });
      await table.getByText("Excel Velho").waitFor({ timeout: 10_000 });
      assert.equal((await supervisor.get("/contacts/?searchParam=5511977770103")).body.contacts[0].name, "Excel Raro");
    });
  },
});
