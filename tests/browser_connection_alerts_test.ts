/**
 * Browser test of the dropped-connection alerts (issue #40): an admin on any page gets a toast
 * when the company's number stays down past the grace period and a bell that lists it (and is
 * there after a reload, since the alert is stored); the platform owner's /connection-alerts
 * page, reached from the menu, lists it with the company's name and fits a phone in the dark
 * theme; an agent sees neither.
 */
import assert from "node:assert/strict";
import { demoConnection, eventually } from "./helpers/channels.ts";
import { assertFitsWidth, hasChromium, screenshot, watchSocket } from "./helpers/browser.ts";
import { signedInPage, withServerAndBrowser } from "./helpers/browser_session.ts";

const opts = { ignore: !hasChromium(), sanitizeOps: false, sanitizeResources: false };

Deno.test({
  name: "ConnectionAlertsBell toasts and lists a dropped number for admins; ConnectionAlertsPage lists it for the owner",
  ...opts,
  async fn() {
    await withServerAndBrowser(async (server, chrome) => {
      const admin = await server.login("admin@demo.local");
      const demo = await demoConnection(admin);
      const page = await signedInPage(chrome, server, "admin@demo.local");
      const socket = watchSocket(page);
      await page.goto(`${server.url}/contacts`);
      await socket.ready();
      assert.equal(await page.getByTestId("connection-alerts-bell").count(), 0, "no bell while every number is up");

      await admin.post(`/simulator/${demo.id}/disconnect`);
      await page.getByText('WhatsApp "WhatsApp Demo" está desconectado').waitFor({ timeout: 15_000 });
      await page.getByTestId("connection-alerts-count").filter({ hasText: "1" }).waitFor();
      await page.reload();
      await page.getByTestId("connection-alerts-bell").click();
      const item = page.getByTestId("connection-alert-item");
      await item.getByText("WhatsApp Demo").waitFor();
      await item.getByText(/desconectada desde/).waitFor();
      await screenshot(page, "connection_alerts_bell");

      const owner = await signedInPage(chrome, server, "super@balcao.local");
      await owner.getByRole("link", { name: "Conexões caídas" }).first().click();
      await owner.waitForURL(/\/connection-alerts$/);
      const table = owner.getByTestId("connection-alerts-table");
      await table.getByText("WhatsApp Demo").waitFor({ timeout: 20_000 });
      await table.getByText("Demo", { exact: true }).waitFor();
      await table.getByText("Desconectada").waitFor();
      await owner.context().addCookies([{ name: "theme", value: "dark", url: server.url }]);
      await owner.setViewportSize({ width: 390, height: 800 });
      await owner.reload();
      await table.getByText("WhatsApp Demo").waitFor({ timeout: 20_000 });
      await assertFitsWidth(owner);
      await screenshot(owner, "connection_alerts_phone_dark");

      // Back online: the admin's bell goes, the owner's row says when it came back.
      await admin.post(`/simulator/${demo.id}/scan`);
      await page.getByTestId("connection-alerts-bell").waitFor({ state: "detached", timeout: 15_000 });
      await eventually(async () => (await admin.get("/connection-alerts")).body.alerts.length === 0 || undefined);
      await owner.getByRole("button", { name: "Atualizar lista" }).click();
      await table.getByText(/Voltou em/).waitFor({ timeout: 10_000 });

      const agent = await signedInPage(chrome, server, "agent@demo.local");
      assert.equal(await agent.getByRole("link", { name: "Conexões caídas" }).count(), 0);
      assert.equal(await agent.getByTestId("connection-alerts-bell").count(), 0);
      await agent.goto(`${server.url}/connection-alerts`);
      await agent.getByTestId("gate-notice").waitFor({ timeout: 20_000 });
    }, { sessionDropGraceMs: 300 });
  },
});
