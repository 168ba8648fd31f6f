/**
 * Issue #41, bug 6 and the inbox frictions around it: an agent accepts a ticket and transfers
 * it to another queue (a toast says so; the transfer icon has a tooltip), an admin closes it
 * while it waits ("Fechar" asks first and toasts), and the report's "Usuário" names the admin
 * (spec 002 §2.14 `userName`: the closer). The resolve dialog's text is not its title again.
 */
import assert from "node:assert/strict";
import { signedInPage, withServerAndBrowser } from "./helpers/browser_session.ts";
import { hasChromium, screenshot } from "./helpers/browser.ts";
import { demoTicket } from "./helpers/fixtures.ts";

const opts = { ignore: !hasChromium(), sanitizeOps: false, sanitizeResources: false };

Deno.test({
  name: "Accepted by an agent, transferred, closed by an admin: 'Fechar' confirms and toasts, the report's Usuário names the admin",
  ...opts,
  async fn() {
    await withServerAndBrowser(async (server, chrome) => {
      const admin = await server.login("admin@demo.local");
      const adminName: string = (await admin.get("/auth/me")).body.name ?? "Ana Admin";
      await demoTicket(server, "5511966668001", { name: "Cliente Relatório" });
      const size = { viewport: { width: 1366, height: 800 } };

      // The agent accepts and transfers to Vendas with no user.
      const agent = await signedInPage(chrome, server, "agent@demo.local", size);
      await agent.getByTestId("subtab-pending").click();
      await agent.locator('[data-testid="list-pending"] .ticket-row', { hasText: "Cliente Relatório" }).getByTestId("accept").click();
      await agent.locator('[data-testid="chat"][data-ticket-status="open"]').waitFor({ timeout: 20_000 });
      assert.equal(await agent.getByTestId("transfer").getAttribute("title"), "Transferir");
      await agent.getByTestId("transfer").click();
      await agent.getByTestId("transfer-queue").selectOption({ label: "Vendas" });
      await agent.getByTestId("transfer-submit").click();
      await agent.getByText("Atendimento transferido para Vendas").waitFor({ timeout: 10_000 });

      // The admin closes it while it waits: a question first, then a toast.
      const page = await signedInPage(chrome, server, "admin@demo.local", size);
      await page.getByTestId("subtab-pending").click();
      const row = page.locator('[data-testid="list-pending"] .ticket-row', { hasText: "Cliente Relatório" });
      await row.getByRole("button", { name: "Fechar" }).click();
      const dialog = page.getByRole("dialog", { name: "Fechar atendimento aguardando" });
      await dialog.getByText("O atendimento de Cliente Relatório será encerrado").waitFor();
      await dialog.getByRole("button", { name: "Cancelar" }).click();
      await dialog.waitFor({ state: "detached" });
      assert.equal(await row.count(), 1, "cancel keeps it waiting");
      await row.getByRole("button", { name: "Fechar" }).click();
      await page.getByTestId("close-pending-confirm").click();
      await page.getByText("Atendimento fechado").waitFor({ timeout: 10_000 });
      await row.waitFor({ state: "detached", timeout: 10_000 });

      // The report names who closed it.
      await page.goto(`${server.url}/relatorios`);
      const line = page.getByTestId("report-table").locator("tr", { hasText: "Cliente Relatório" });
      await line.waitFor({ timeout: 20_000 });
      assert.match(await line.innerText(), new RegExp(adminName));
      await screenshot(page, "report_user_closer");

      // The resolve dialog's text says what happens, not its title again.
      await demoTicket(server, "5511966668002", { name: "Cliente Resolver" });
      await page.goto(`${server.url}/tickets`);
      await page.getByTestId("subtab-pending").click();
      await page.locator('[data-testid="list-pending"] .ticket-row', { hasText: "Cliente Resolver" }).getByTestId("accept").click();
      await page.locator('[data-testid="chat"][data-ticket-status="open"]').waitFor({ timeout: 20_000 });
      await page.getByTestId("resolve").click();
      const resolve = page.getByRole("dialog", { name: "Resolver atendimento" });
      await resolve.waitFor();
      assert.doesNotMatch(await resolve.locator("p").innerText(), /Resolver atendimento/);
    });
  },
});
