/**
 * Browser tests of /servicePanel (spec 000 §2, §6): the columns in the server's HTML (an
 * 'Aguardando' column and one per user), a new ticket arriving live, return to queue,
 * transfer through the inbox's dialog, close, the gate for a plain user, phone width in
 * both themes.
 */
import assert from "node:assert/strict";
import { assertFitsWidth, hasChromium, screenshot, watchSocket } from "./helpers/browser.ts";
import { signedInPage, withServerAndBrowser } from "./helpers/browser_session.ts";
import { inboundTicket, makeContact } from "./helpers/fixtures.ts";
import type { TestServer } from "./helpers/server.ts";

const opts = { ignore: !hasChromium(), sanitizeOps: false, sanitizeResources: false };

async function ticketOf(server: TestServer, name: string) {
  const companyId = server.demo!.companyId;
  const contact = await makeContact(server, companyId, { name });
  return await inboundTicket(server, companyId, { contact, queueId: server.demo!.queueIds[0] });
}

Deno.test({
  name: "ServicePanelPage shows Aguardando and a column per user, follows tickets live, returns, transfers and closes",
  ...opts,
  async fn() {
    await withServerAndBrowser(async (server, chrome) => {
      const idOf = (email: string) => server.demo!.logins.find((l) => l.email === email)!.id;
      const agentId = idOf("agent@demo.local");
      const supervisorId = idOf("supervisor@demo.local");
      const agent = await server.login("agent@demo.local");
      const waiting = await ticketOf(server, "Wagner Aguardando");
      const mine = await ticketOf(server, "Olga Aberta");
      assert.equal((await agent.put(`/tickets/${mine.id}`, { status: "open" })).status, 200);

      const page = await signedInPage(chrome, server, "admin@demo.local");
      const html = await page.evaluate(async () => (await fetch("/servicePanel", { headers: { accept: "text/html" } })).text());
      assert.match(html, /Aguardando/);
      assert.match(html, /Wagner Aguardando/, "the columns are in the server's HTML");
      const socket = watchSocket(page);
      await page.goto(`${server.url}/servicePanel`);
      const waitingCol = page.getByTestId("panel-waiting");
      const agentCol = page.getByTestId(`panel-user-${agentId}`);
      const supervisorCol = page.getByTestId(`panel-user-${supervisorId}`);
      await waitingCol.getByText("Wagner Aguardando").waitFor({ timeout: 20_000 });
      await agentCol.getByText("Olga Aberta").waitFor();
      await agentCol.getByText("Alice Atendente").waitFor();
      await supervisorCol.getByText("Nenhum atendimento").waitFor();

      // A new conversation arrives live in Aguardando (once the page's socket is up: an event
      // before it is lost).
      await socket.ready();
      await ticketOf(server, "Nina Nova");
      await waitingCol.getByText("Nina Nova").waitFor({ timeout: 10_000 });
      await screenshot(page, "service_panel");

      // Return to queue: the agent's card moves to Aguardando.
      const olga = agentCol.locator("[data-testid=panel-card]", { hasText: "Olga Aberta" });
      await olga.getByRole("button", { name: "Devolver à fila" }).click();
      await waitingCol.getByText("Olga Aberta").waitFor({ timeout: 10_000 });
      await agentCol.getByText("Olga Aberta").waitFor({ state: "detached" });
      const returned = (await agent.get(`/tickets/${mine.id}`)).body;
      assert.equal(returned.status, "pending");

      // Transfer (the inbox's dialog): the pending card goes to the supervisor, open.
      const wagner = waitingCol.locator("[data-testid=panel-card]", { hasText: "Wagner Aguardando" });
      await wagner.getByRole("button", { name: "Transferir" }).click();
      const dialog = page.getByRole("dialog");
      await dialog.getByRole("searchbox").fill("Sérg");
      await dialog.getByRole("button", { name: "Sérgio Supervisor" }).click({ timeout: 10_000 });
      await dialog.getByTestId("transfer-queue").selectOption({ index: 1 });
      await dialog.getByTestId("transfer-submit").click();
      await supervisorCol.getByText("Wagner Aguardando").waitFor({ timeout: 10_000 });
      await waitingCol.getByText("Wagner Aguardando").waitFor({ state: "detached" });
      const admin = await server.login("supervisor@demo.local");
      const moved = (await admin.get(`/tickets/${waiting.id}`)).body;
      assert.equal(moved.status, "open");
      assert.equal(moved.userId, supervisorId);

      // Close: the resolve dialog, then the card leaves the board.
      const card = supervisorCol.locator("[data-testid=panel-card]", { hasText: "Wagner Aguardando" });
      await card.getByRole("button", { name: "Resolver" }).click();
      await page.getByTestId("resolve-without").click();
      await supervisorCol.getByText("Wagner Aguardando").waitFor({ state: "detached", timeout: 10_000 });
      assert.equal((await admin.get(`/tickets/${waiting.id}`)).body.status, "closed");

      // Close a pending one straight from Aguardando.
      const nina = waitingCol.locator("[data-testid=panel-card]", { hasText: "Nina Nova" });
      await nina.getByRole("button", { name: "Fechar" }).click();
      await waitingCol.getByText("Nina Nova").waitFor({ state: "detached", timeout: 10_000 });

      // Phone width, light then dark: columns scroll sideways inside the board only.
      await page.setViewportSize({ width: 390, height: 820 });
      await page.reload();
      await waitingCol.getByText("Olga Aberta").waitFor({ timeout: 20_000 });
      await assertFitsWidth(page);
      await screenshot(page, "service_panel_phone");
      await page.context().addCookies([{ name: "theme", value: "dark", url: server.url }]);
      await page.reload();
      await waitingCol.getByText("Olga Aberta").waitFor({ timeout: 20_000 });
      await assertFitsWidth(page);
      await screenshot(page, "service_panel_phone_dark");
    });
  },
});

Deno.test({
  name: "ServicePanelPage is refused to a plain user, and GET /service-panel answers 403",
  ...opts,
  async fn() {
    await withServerAndBrowser(async (server, chrome) => {
      const agent = await server.login("agent@demo.local");
      const refused = await agent.get("/service-panel");
      assert.equal(refused.status, 403);
      assert.equal(refused.body.error, "ERR_NO_PERMISSION");
      const page = await signedInPage(chrome, server, "agent@demo.local");
      await page.goto(`${server.url}/servicePanel`);
      await page.getByTestId("gate-notice").waitFor({ timeout: 20_000 });
      assert.equal(await page.getByTestId("panel-waiting").count(), 0);
    });
  },
});
