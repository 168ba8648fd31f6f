/**
 * Browser tests of /users (spec 001 §2.12, §2.13) on the admin kit: the first page is in the
 * server's HTML, create with the user modal's validation messages, a taken e-mail at its
 * field, the plan's user limit as a toast, edit, delete with the §8 confirmation, rows
 * arriving live from the platform owner's change, the supervisor's read-only view, the
 * agent's gate, phone width.
 */
import assert from "node:assert/strict";
import { withServer } from "./helpers/server.ts";
import { assertFitsWidth, hasChromium, launchBrowser, loginToShell, screenshot } from "./helpers/browser.ts";

const opts = { ignore: !hasChromium(), sanitizeOps: false, sanitizeResources: false };

Deno.test({
  name: "UsersPage renders its rows on the server, creates, validates, edits and deletes, and patches rows live",
  ...opts,
  async fn() {
    await withServer(async (server) => {
      // The platform owner is "the other side": a different user from the browser's admin.
      const owner = await server.login("super@balcao.local");
      const companyId = server.demo!.companyId;
      const chrome = await launchBrowser();
      try {
        const page = await (await chrome.newContext()).newPage();
        await loginToShell(page, server.url, "admin@demo.local");

        // The server's HTML already holds the first page, queue names included.
        const html = await page.evaluate(async () => (await fetch("/users", { headers: { accept: "text/html" } })).text());
        assert.match(html, /Alice Atendente/);
        assert.match(html, /Suporte/);
        await page.goto(`${server.url}/users`);
        const table = page.getByTestId("users-table");
        await table.getByText("Alice Atendente").waitFor({ timeout: 20_000 });
        // The admin's own row has no delete (the server refuses deleting oneself).
        const own = table.locator("tr", { hasText: "Ana Admin" });
        assert.equal(await own.getByRole("button", { name: "Excluir" }).count(), 0);
        assert.equal(await own.getByRole("button", { name: "Editar" }).count(), 1);

        // Validation: the schema's exact messages, before any call.
        await page.getByRole("button", { name: "Adicionar usuário" }).click();
        const dialog = page.getByRole("dialog");
        await dialog.getByTestId("user-save").click();
        await dialog.getByText("Obrigatório").first().waitFor({ timeout: 10_000 });
        await dialog.getByLabel("Nome").fill("B");
        await dialog.getByLabel("E-mail").fill("nope");
        await dialog.getByTestId("user-save").click();
        await dialog.getByText("Muito curto!").first().waitFor({ timeout: 10_000 });
        await dialog.getByText("E-mail inválido").waitFor();
        await screenshot(page, "users_dialog");

        // A taken e-mail comes back from the server and is shown at the field.
        await dialog.getByLabel("Nome").fill("Bruno Novo");
        await dialog.getByLabel("Senha").fill("12345");
        await dialog.getByLabel("E-mail").fill("supervisor@demo.local");
        await dialog.getByTestId("user-save").click();
        await dialog.getByText("Este e-mail já está em uso.").waitFor({ timeout: 10_000 });

        // Create with a queue and the default connection.
        await dialog.getByLabel("E-mail").fill("bruno@demo.local");
        await dialog.getByLabel("Vendas").check();
        await dialog.getByLabel("Conexão padrão").selectOption({ label: "WhatsApp Demo" });
        await dialog.getByLabel("Perfil").selectOption({ label: "Supervisor" });
        await dialog.getByTestId("user-save").click();
        await dialog.waitFor({ state: "detached", timeout: 10_000 });
        const bruno = table.locator("tr", { hasText: "Bruno Novo" });
        await bruno.getByText("Vendas").waitFor({ timeout: 10_000 });
        await bruno.getByText("WhatsApp Demo").waitFor();
        const created = (await owner.get(`/users/?companyId=${companyId}&searchParam=bruno@`)).body.users[0];
        assert.equal(created.profile, "supervisor");

        // Rows arrive live from another user's change, their ids named from the page's lists.
        const live = await owner.post("/users", {
          name: "Carla Remota",
          email: "carla@demo.local",
          password: "12345",
          companyId,
          queueIds: [server.demo!.queueIds[0]],
        });
        assert.equal(live.status, 201, JSON.stringify(live.body));
        const carla = table.locator("tr", { hasText: "Carla Remota" });
        await carla.getByText("Suporte").waitFor({ timeout: 10_000 });
        await owner.put(`/users/${live.body.id}`, { name: "Carla Renomeada", queueIds: [] });
        await table.locator("tr", { hasText: "Carla Renomeada" }).getByText("Sem filas").waitFor({ timeout: 10_000 });
        // Made a super user: the row gets the mark, and the admin may no longer edit or delete it.
        assert.equal((await owner.put(`/users/${live.body.id}`, { super: true })).status, 200);
        const superRow = table.locator("tr", { hasText: "Carla Renomeada" });
        await superRow.getByText("(SUPERUSER)").waitFor({ timeout: 10_000 });
        assert.equal(await superRow.getByRole("button").count(), 0);

        // Edit: the password may stay empty.
        await bruno.getByRole("button", { name: "Editar" }).click();
        assert.equal(await dialog.getByLabel("Nome").inputValue(), "Bruno Novo");
        await dialog.getByLabel("Nome").fill("Bruno Editado");
        await dialog.getByTestId("user-save").click();
        await table.getByText("Bruno Editado").waitFor({ timeout: 10_000 });
        assert.equal((await owner.get(`/users/${created.id}`)).body.name, "Bruno Editado");

        // Delete with the §8 confirmation.
        await table.locator("tr", { hasText: "Bruno Editado" }).getByRole("button", { name: "Excluir" }).click();
        await page.getByRole("dialog").getByText("Exclusão de Registro").waitFor();
        await page.getByText("Deseja realmente excluir esse registro?").waitFor();
        await page.getByTestId("confirm").click();
        await table.getByText("Bruno Editado").waitFor({ state: "detached", timeout: 10_000 });
        assert.equal((await owner.get(`/users/${created.id}`)).status, 404);

        // The plan's user limit: the server refuses and the toast names the limit.
        const count = (await owner.get(`/users/?companyId=${companyId}`)).body.count;
        assert.equal((await owner.put(`/plans/${server.demo!.planId}`, { users: count })).status, 200);
        await page.getByRole("button", { name: "Adicionar usuário" }).click();
        await dialog.getByLabel("Nome").fill("Além do Plano");
        await dialog.getByLabel("Senha").fill("12345");
        await dialog.getByLabel("E-mail").fill("alem@demo.local");
        await dialog.getByTestId("user-save").click();
        await page.getByText(`Seu plano permite no máximo ${count} usuários`, { exact: false }).waitFor({ timeout: 10_000 });
        await dialog.getByRole("button", { name: "Cancelar" }).click();
        await dialog.waitFor({ state: "detached" });

        // Search (debounced) narrows the table on the server.
        await page.getByRole("searchbox").fill("carla");
        await table.getByText("Alice Atendente").waitFor({ state: "detached", timeout: 10_000 });
        await table.getByText("Carla Renomeada").waitFor();
        await page.getByRole("searchbox").fill("");
        await table.getByText("Alice Atendente").waitFor({ timeout: 10_000 });
        await screenshot(page, "users");
        // Dark theme: only the tokens change.
        await page.evaluate(() => document.documentElement.setAttribute("data-theme", "dark"));
        await screenshot(page, "users_dark");
        await page.evaluate(() => document.documentElement.removeAttribute("data-theme"));

        // Phone width: the page still fits.
        await page.setViewportSize({ width: 390, height: 800 });
        await page.reload();
        await table.getByText("Alice Atendente").waitFor({ timeout: 20_000 });
        await assertFitsWidth(page);
        await screenshot(page, "users_phone");

        // A supervisor opens the page but sees no add, edit or delete (the server refuses their writes).
        const supervisor = await (await chrome.newContext()).newPage();
        await loginToShell(supervisor, server.url, "supervisor@demo.local");
        await supervisor.goto(`${server.url}/users`);
        const supervisorTable = supervisor.getByTestId("users-table");
        await supervisorTable.getByText("Alice Atendente").waitFor({ timeout: 20_000 });
        assert.equal(await supervisor.getByRole("button", { name: "Adicionar usuário" }).count(), 0);
        assert.equal(await supervisorTable.getByRole("button", { name: "Editar" }).count(), 0);
        assert.equal(await supervisorTable.getByRole("button", { name: "Excluir" }).count(), 0);

        // An agent gets the server-rendered gate and no rows.
        const agent = await (await chrome.newContext()).newPage();
        await loginToShell(agent, server.url, "agent@demo.local");
        const gated = await agent.evaluate(async () => (await fetch("/users", { headers: { accept: "text/html" } })).text());
        assert.match(gated, /data-testid="gate-notice"[^>]*>Sem permissão para acessar!/);
        assert.doesNotMatch(gated, /Sérgio Supervisor/);
        await agent.goto(`${server.url}/users`);
        await agent.getByText("Sem permissão para acessar!").first().waitFor({ timeout: 10_000 });
        assert.equal(await agent.getByTestId("users-table").count(), 0);
      } finally {
        await chrome.close();
      }
    });
  },
});
