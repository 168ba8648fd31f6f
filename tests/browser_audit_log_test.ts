/**
 * Browser test of /audit-log (issue #24): the server's HTML holds the first page, the admin
 * sees who did what, the action filter narrows the table, the menu has the entry for admins
 * and not for agents (who are turned away from the page), and it fits 390 px in the dark theme.
 */
import assert from "node:assert/strict";
import { withServer } from "./helpers/server.ts";
import { assertFitsWidth, hasChromium, launchBrowser, loginToShell, screenshot } from "./helpers/browser.ts";

const opts = { ignore: !hasChromium(), sanitizeOps: false, sanitizeResources: false };

Deno.test({
  name: "AuditLogPage renders the log on the server, filters by action, and fits a phone in the dark theme",
  ...opts,
  async fn() {
    await withServer(async (server) => {
      const admin = await server.login("admin@demo.local");
      const user = await admin.post("/users", { name: "Rita Souza", email: "rita@demo.local", password: "segredo1", profile: "user" });
      assert.equal(user.status, 201);
      assert.equal((await admin.put("/settings/userRating", { value: "enabled" })).status, 200);
      const chrome = await launchBrowser();
      try {
        const page = await (await chrome.newContext()).newPage();
        await loginToShell(page, server.url, "admin@demo.local");
        const html = await page.evaluate(async () => (await fetch("/audit-log", { headers: { accept: "text/html" } })).text());
        assert.match(html, /Rita Souza/);
        await page.goto(`${server.url}/audit-log`);
        const table = page.getByTestId("audit-table");
        await table.getByText("Criou usuário").waitFor({ timeout: 20_000 });
        await table.getByText("Alterou configuração").waitFor();
        await page.getByRole("link", { name: "Registro de auditoria" }).first().waitFor();

        await page.getByLabel("Filtrar por ação").selectOption("setting.update");
        await table.getByText("Criou usuário").waitFor({ state: "detached", timeout: 10_000 });
        await table.getByText("Alterou configuração").waitFor();
        await page.getByLabel("Filtrar por ação").selectOption("");
        await table.getByText("Criou usuário").waitFor({ timeout: 10_000 });
        await screenshot(page, "audit_log");

        await page.context().addCookies([{ name: "theme", value: "dark", url: server.url }]);
        await page.setViewportSize({ width: 390, height: 800 });
        await page.reload();
        await table.getByText("Criou usuário").waitFor({ timeout: 20_000 });
        await assertFitsWidth(page);
        await screenshot(page, "audit_log_phone_dark");

        const agent = await (await chrome.newContext()).newPage();
        await loginToShell(agent, server.url, "agent@demo.local");
        assert.equal(await agent.getByRole("link", { name: "Registro de auditoria" }).count(), 0);
        await agent.goto(`${server.url}/audit-log`);
        await agent.getByTestId("gate-notice").waitFor({ timeout: 20_000 });
        assert.equal(await agent.getByText("Rita Souza").count(), 0);
      } finally {
        await chrome.close();
      }
    });
  },
});
