/**
 * Issue #38, item 5, in a real browser: changing one's own password or e-mail asks for the
 * current password, in the top bar's profile modal and in the users screen's dialog; the
 * field appears only when it is needed, a wrong one is refused at the field, the right one
 * saves. An admin editing another user is not asked.
 */
import assert from "node:assert/strict";
import { DEMO_PASSWORD, withServer } from "./helpers/server.ts";
import { hasChromium, launchBrowser, loginToShell, screenshot } from "./helpers/browser.ts";

const opts = { ignore: !hasChromium(), sanitizeOps: false, sanitizeResources: false };

Deno.test({
  name: "UserModal and UserDialog ask for the current password to change one's own password or e-mail",
  ...opts,
  async fn() {
    await withServer(async (server) => {
      const chrome = await launchBrowser();
      try {
        // The agent, from the top bar's profile modal.
        const page = await (await chrome.newContext({ viewport: { width: 390, height: 844 } })).newPage();
        await loginToShell(page, server.url, "agent@demo.local");
        await page.getByTestId("profile-menu").click();
        await page.getByRole("menuitem", { name: "Perfil" }).click();
        const modal = page.getByRole("dialog");
        const current = modal.getByLabel("Senha atual");
        await modal.getByLabel("Nome", { exact: true }).waitFor({ timeout: 15_000 });
        assert.equal(await current.count(), 0, "not asked while nothing sensitive changes");
        await modal.getByLabel("Senha", { exact: true }).fill("novasenha1");
        await current.waitFor();
        await modal.getByRole("button", { name: "Salvar" }).click();
        await modal.getByText("Obrigatório").waitFor({ timeout: 10_000 });
        await current.fill("errada123");
        await modal.getByRole("button", { name: "Salvar" }).click();
        await modal.getByText("Senha atual incorreta.").waitFor({ timeout: 10_000 });
        await screenshot(page, "user_modal_current_password");
        assert.equal((await server.client().post("/auth/login", { email: "agent@demo.local", password: "novasenha1" })).status, 401);
        await current.fill(DEMO_PASSWORD);
        await modal.getByRole("button", { name: "Salvar" }).click();
        await modal.waitFor({ state: "detached", timeout: 10_000 });
        await server.login("agent@demo.local", "novasenha1");

        // The admin, on the users screen: its own row asks when the e-mail changes...
        const admin = await (await chrome.newContext()).newPage();
        await loginToShell(admin, server.url, "admin@demo.local");
        await admin.goto(`${server.url}/users`);
        const table = admin.getByTestId("users-table");
        await table.locator("tr", { hasText: "Ana Admin" }).getByRole("button", { name: "Editar" }).click();
        const dialog = admin.getByRole("dialog");
        await dialog.getByLabel("E-mail").fill("ana@demo.local");
        await dialog.getByLabel("Senha atual").waitFor();
        await dialog.getByTestId("user-save").click();
        await dialog.getByText("Obrigatório").waitFor({ timeout: 10_000 });
        await dialog.getByLabel("Senha atual").fill("errada123");
        await dialog.getByTestId("user-save").click();
        await dialog.getByText("Senha atual incorreta.").waitFor({ timeout: 10_000 });
        await dialog.getByLabel("Senha atual").fill(DEMO_PASSWORD);
        await dialog.getByTestId("user-save").click();
        await dialog.waitFor({ state: "detached", timeout: 10_000 });
        await server.login("ana@demo.local");

        // ...and another user's row never does: that is an admin's reset.
        await table.locator("tr", { hasText: "Sérgio Supervisor" }).getByRole("button", { name: "Editar" }).click();
        await dialog.getByLabel("Senha", { exact: true }).fill("redefinida1");
        assert.equal(await dialog.getByLabel("Senha atual").count(), 0);
        await dialog.getByTestId("user-save").click();
        await dialog.waitFor({ state: "detached", timeout: 10_000 });
        await server.login("supervisor@demo.local", "redefinida1");
      } finally {
        await chrome.close();
      }
    });
  },
});
