/**
 * Browser test of the queue dialog's Integrations tab (spec 001 §2.15, §7) against fake Typebot
 * and n8n servers: the workspace and bot selects fed by /typebot/listworkspaces and
 * /typebot/listtypebots, the n8n workflow select that fills the webhook URL, what is saved,
 * the reason shown (and the typed fallback) when the integration is not configured, and the
 * tab at 390 px in light and dark themes.
 */
import assert from "node:assert/strict";
import { assertFitsWidth, hasChromium, screenshot } from "./helpers/browser.ts";
import { signedInPage, withServerAndBrowser } from "./helpers/browser_session.ts";
import { fakeN8n, N8N_API_KEY } from "./helpers/fake_n8n.ts";
import { fakeTypebot, TYPEBOT_ID, TYPEBOT_TOKEN } from "./helpers/fake_typebot.ts";

/** The fakes listen on loopback: let the integrations reach them (BALCAO_INTEGRATION_ALLOW_PRIVATE). */
const REACH_FAKES = { integrationAllowPrivate: true } as const;

const opts = { ignore: !hasChromium(), sanitizeOps: false, sanitizeResources: false };

Deno.test({
  name: "QueueDialog Integrations tab offers Typebot workspaces and bots and n8n workflows from the services, and says why when they are not configured",
  ...opts,
  async fn() {
    const typebot = fakeTypebot();
    const n8n = fakeN8n();
    try {
      await withServerAndBrowser(async (server, chrome) => {
        const admin = await server.login("admin@demo.local");
        const browser = await signedInPage(chrome, server, "admin@demo.local", { viewport: { width: 390, height: 844 } });

        // Not configured yet: the reason shows and the id can still be typed.
        await browser.goto(`${server.url}/queues`);
        await browser.getByRole("button", { name: "Adicionar fila" }).click();
        const dialog = browser.getByRole("dialog");
        await dialog.getByRole("tab", { name: "Integrações" }).click();
        await dialog.getByLabel("Integração").selectOption({ label: "Typebot" });
        await dialog.getByText("Integração não configurada: preencha a URL e o token em Configurações").waitFor({ timeout: 10_000 });
        await dialog.getByLabel("ID do Typebot").fill("typed-by-hand");
        await dialog.getByRole("button", { name: "Cancelar" }).click();

        for (const [key, value] of [["urlTypebot", typebot.url], ["tokenTypebot", TYPEBOT_TOKEN], ["urlN8N", n8n.url], ["apiKeyN8N", N8N_API_KEY]]) {
          const r = await admin.put(`/settings/${key}`, { value });
          assert.equal(r.status, 200, JSON.stringify(r.body));
        }

        // Typebot: workspace, then the bots of that workspace.
        await browser.reload();
        await browser.getByRole("button", { name: "Adicionar fila" }).click();
        await dialog.getByLabel("Nome").first().fill("Robô");
        await dialog.getByLabel("Prioridade").fill("7");
        await dialog.getByRole("tab", { name: "Integrações" }).click();
        await dialog.getByLabel("Integração").selectOption({ label: "Typebot" });
        const workspace = dialog.getByLabel("Workspace do Typebot");
        await workspace.locator("option", { hasText: "Atendimento" }).waitFor({ state: "attached", timeout: 10_000 });
        await workspace.selectOption({ label: "Atendimento" });
        const bot = dialog.getByLabel("Typebot", { exact: true });
        await bot.locator("option", { hasText: "Rascunho (não publicado)" }).waitFor({ state: "attached", timeout: 10_000 });
        await bot.selectOption({ label: "Triagem" });
        await assertFitsWidth(browser, "the Integrations tab");
        await screenshot(browser, "queue_integrations_typebot_phone");
        await browser.evaluate(() => document.documentElement.setAttribute("data-theme", "dark"));
        await screenshot(browser, "queue_integrations_typebot_phone_dark");
        await browser.evaluate(() => document.documentElement.setAttribute("data-theme", "light"));
        await dialog.getByTestId("queue-save").click();
        await dialog.waitFor({ state: "detached", timeout: 10_000 });
        const saved = (await admin.get("/queue")).body.find((q: { name: string }) => q.name === "Robô");
        assert.equal(saved.typeChatbot, "typebot");
        assert.equal(saved.workspaceTypebot, "ws-1");
        assert.equal(saved.typebotId, TYPEBOT_ID);

        // n8n: choosing a workflow fills its webhook URL.
        await browser.getByRole("button", { name: "Adicionar fila" }).click();
        await dialog.getByLabel("Nome").first().fill("IA n8n");
        await dialog.getByLabel("Prioridade").fill("8");
        await dialog.getByRole("tab", { name: "Integrações" }).click();
        await dialog.getByLabel("Integração").selectOption({ label: "n8n" });
        const flow = dialog.getByLabel("Fluxo do n8n");
        await flow.locator("option", { hasText: "Pedidos" }).waitFor({ state: "attached", timeout: 10_000 });
        assert.ok(await flow.locator("option", { hasText: "Rascunho (inativo)" }).count() === 1);
        await flow.selectOption({ label: "Pedidos" });
        assert.equal(await dialog.getByLabel("URL do n8n").inputValue(), `${n8n.url}/webhook/pedidos`);
        await browser.evaluate(() => document.documentElement.setAttribute("data-theme", "dark"));
        await screenshot(browser, "queue_integrations_n8n_phone_dark");
        await browser.evaluate(() => document.documentElement.setAttribute("data-theme", "light"));
        await dialog.getByTestId("queue-save").click();
        await dialog.waitFor({ state: "detached", timeout: 10_000 });
        const flowQueue = (await admin.get("/queue")).body.find((q: { name: string }) => q.name === "IA n8n");
        assert.equal(flowQueue.typeChatbot, "n8n");
        assert.equal(flowQueue.n8nId, "3");
        assert.equal(flowQueue.n8n, `${n8n.url}/webhook/pedidos`);

        // Editing the Typebot queue shows the saved choices.
        await browser.getByTestId("queues-table").locator("tr", { hasText: "Robô" }).getByRole("button", { name: "Editar" }).click();
        await dialog.getByRole("tab", { name: "Integrações" }).click();
        await dialog.getByLabel("Typebot", { exact: true }).locator("option", { hasText: "Triagem" }).waitFor({ state: "attached", timeout: 10_000 });
        await dialog.getByLabel("Workspace do Typebot").locator("option", { hasText: "Atendimento" }).waitFor({ state: "attached", timeout: 10_000 });
        assert.equal(await dialog.getByLabel("Workspace do Typebot").locator("option:checked").textContent(), "Atendimento");
        assert.equal(await dialog.getByLabel("Typebot", { exact: true }).locator("option:checked").textContent(), "Triagem");
      }, REACH_FAKES);
    } finally {
      await typebot.server.shutdown();
      await n8n.server.shutdown();
    }
  },
});
