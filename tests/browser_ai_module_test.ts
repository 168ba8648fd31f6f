/**
 * Browser tests of the AI module (spec 002 §2.17, §5, §8; issue #20) against a real server
 * and a fake chat-completions endpoint: the /ai-module page's three sections (the spec's
 * validation texts at the fields and in a toast, POST then PUT, the write-only key, 'Nenhum
 * link salvo ainda', a failed save's section toast, an agent's read-only view, 390 px dark),
 * and the composer's 'Sugerir resposta' filling the input from the fake endpoint without
 * sending, its failure and timeout toasts leaving the conversation as it was.
 * Screenshots: ai_module, ai_module_phone_dark, ai_suggest, ai_suggest_phone_dark.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { SECRET_MASK } from "../domain/settings.ts";
import { demoConnection, eventually } from "./helpers/channels.ts";
import { assertFitsWidth, hasChromium, screenshot } from "./helpers/browser.ts";
import { signedInPage, withServerAndBrowser } from "./helpers/browser_session.ts";
import { fakeOpenAi } from "./helpers/fake_openai.ts";
import type { Client } from "./helpers/server.ts";

/** The fakes listen on loopback: let the integrations reach them (BALCAO_INTEGRATION_ALLOW_PRIVATE). */
const REACH_FAKES = { integrationAllowPrivate: true } as const;

const opts = { ignore: !hasChromium(), sanitizeOps: false, sanitizeResources: false };

/**
 * The AI module's writes the page made, as "METHOD key", each counted once its response
 * arrived: counting at the request raced the API read that follows (CI saw the last POST
 * still in flight).
 */
function recordWrites(page: Page): string[] {
  const writes: string[] = [];
  page.on("response", (response) => {
    const r = response.request();
    if (new URL(r.url()).pathname === "/ai-module" && r.method() !== "GET") writes.push(`${r.method()} ${r.postDataJSON()?.key}`);
  });
  return writes;
}

/** Fails with a screenshot of `page` when `fn` throws. */
async function shotOnFailure(page: Page, name: string, fn: () => Promise<void>): Promise<void> {
  try {
    await fn();
  } catch (error) {
    await screenshot(page, `failure_${name}`);
    throw error;
  }
}

Deno.test({
  name: "/ai-module saves its three sections with the spec's validation texts, keeps the key write-only, and is read-only for an agent",
  ...opts,
  async fn() {
    await withServerAndBrowser(async (server, chrome) => {
      const admin = await server.login("admin@demo.local");
      const page = await signedInPage(chrome, server, "admin@demo.local", { viewport: { width: 1280, height: 900 } });
      await shotOnFailure(page, "ai_module", async () => {
        await page.goto(`${server.url}/ai-module`);
        const endpoint = page.getByTestId("ai-endpoint");
        await endpoint.waitFor({ timeout: 20_000 });
        const writes = recordWrites(page);

        // §8: nothing saved yet to copy.
        await endpoint.getByRole("button", { name: "Copiar link" }).click();
        await page.getByText("Nenhum link salvo ainda").waitFor({ timeout: 10_000 });

        // §5: an invalid URL and a missing model are refused at the fields and in a toast, before any call.
        await endpoint.getByLabel("URL do endpoint").fill("meu endpoint");
        await endpoint.getByTestId("ai-endpoint-save").click();
        await page.getByTestId("toast").filter({ hasText: "Informe uma URL válida" }).waitFor({ timeout: 10_000 });
        await endpoint.getByText("Informe uma URL válida").waitFor({ timeout: 10_000 });
        await endpoint.getByText("Informe o modelo").waitFor();
        const system = page.getByTestId("ai-system-message");
        await system.getByTestId("ai-system-message-save").click();
        await system.getByText("Informe as instruções do sistema").waitFor({ timeout: 10_000 });
        await page.getByTestId("toast").filter({ hasText: "Informe as instruções do sistema" }).waitFor({ timeout: 10_000 });
        assert.deepEqual(writes, [], "invalid sections never reach the server");

        // Valid values: one POST per key; the key is never shown again.
        await endpoint.getByLabel("URL do endpoint").fill("https://llm.example.com/v1/chat/completions");
        await endpoint.getByLabel("Modelo").fill("gpt-4o-mini");
        await endpoint.getByLabel("Chave da API").fill("sk-browser-1");
        await endpoint.getByTestId("ai-endpoint-save").click();
        await page.getByText("Configurações salvas").first().waitFor({ timeout: 10_000 });
        await endpoint.getByText("Chave salva. Deixe em branco para manter a atual.").waitFor();
        assert.equal(await endpoint.getByLabel("Chave da API").inputValue(), "");
        await system.getByLabel("Instruções").fill("Você é um atendente cordial. Responda em até três frases.");
        await system.getByTestId("ai-system-message-save").click();
        const data = page.getByTestId("ai-data-description");
        await data.getByLabel("Descrição").fill("Loja Demo: entregas em 2 dias úteis; trocas em até 7 dias.");
        await data.getByTestId("ai-data-description-save").click();
        await eventually(() => writes.length === 5 || undefined, 10_000, "five writes");
        assert.deepEqual(writes, ["POST form-endpoint", "POST model", "POST api-key", "POST system-message", "POST data-description"]);
        const stored = Object.fromEntries(((await admin.get("/ai-module/")).body as Array<{ key: string; value: string }>).map((s) => [s.key, s.value]));
        assert.equal(stored["form-endpoint"], "https://llm.example.com/v1/chat/completions");
        assert.equal(stored["api-key"], SECRET_MASK);
        assert.equal(stored["data-description"], "Loja Demo: entregas em 2 dias úteis; trocas em até 7 dias.");

        // The server renders the saved values; a change is a PUT of that key alone.
        const html = await page.evaluate(async () => (await fetch("/ai-module", { headers: { accept: "text/html" } })).text());
        assert.match(html, /Loja Demo: entregas em 2 dias úteis/);
        assert.ok(!html.includes("sk-browser-1"), "the key is not in the page");
        await page.reload();
        await endpoint.getByLabel("Modelo").fill("gpt-4.1-mini");
        await endpoint.getByTestId("ai-endpoint-save").click();
        await page.getByText("Configurações salvas").first().waitFor({ timeout: 10_000 });
        await eventually(() => writes.at(-1) === "PUT model" || undefined, 10_000, "PUT model");

        // §8: a save the server refuses says which section failed.
        await page.route("**/ai-module", (route) => route.request().method() === "PUT" ? route.fulfill({ status: 500, body: "{}" }) : route.continue());
        await system.getByLabel("Instruções").fill("Seja breve.");
        await system.getByTestId("ai-system-message-save").click();
        await page.getByText("Erro ao salvar/atualizar as instruções").waitFor({ timeout: 10_000 });
        await page.unroute("**/ai-module");

        await endpoint.getByRole("button", { name: "Copiar link" }).click();
        await page.getByText("Link copiado").waitFor({ timeout: 10_000 });
        await screenshot(page, "ai_module");

        await page.context().addCookies([{ name: "theme", value: "dark", url: server.url }]);
        await page.setViewportSize({ width: 390, height: 900 });
        await page.goto(`${server.url}/ai-module`);
        await endpoint.waitFor({ timeout: 20_000 });
        await assertFitsWidth(page);
        await screenshot(page, "ai_module_phone_dark");
      });

      // An agent reads the settings (the key masked) but changes nothing.
      const agent = await signedInPage(chrome, server, "agent@demo.local");
      await agent.goto(`${server.url}/ai-module`);
      await agent.getByText("Somente administradores alteram estas configurações.").waitFor({ timeout: 20_000 });
      assert.equal(await agent.getByTestId("ai-endpoint-save").count(), 0);
      assert.equal(await agent.getByTestId("ai-endpoint").getByLabel("Modelo").inputValue(), "gpt-4.1-mini");
      assert.ok(await agent.getByTestId("ai-endpoint").getByLabel("Modelo").isDisabled());
    }, REACH_FAKES);
  },
});

/** Stores the assistant's settings through the API. */
async function configure(admin: Client, endpoint: string) {
  for (const [key, value] of Object.entries({ "form-endpoint": endpoint, model: "gpt-4o-mini", "system-message": "Seja cordial." })) {
    assert.equal((await admin.post("/ai-module", { key, value })).status, 201);
  }
}

Deno.test({
  name: "MessageInput: 'Sugerir resposta' fills the composer from the chat-completions endpoint, never sends, and toasts its failures",
  ...opts,
  async fn() {
    const fake = fakeOpenAi();
    try {
      await withServerAndBrowser(async (server, chrome) => {
        const admin = await server.login("admin@demo.local");
        const adminId = server.demo!.logins.find((l) => l.email === "admin@demo.local")!.id;
        const conn = await demoConnection(admin);
        assert.equal((await admin.post(`/simulator/${conn.id}/inbound`, { from: "5511966660001", name: "Cliente IA", body: "Vocês entregam no sábado?" })).status, 200);
        const ticket = await eventually(async () => {
          const list = (await admin.get("/tickets?status=pending&showAll=true")).body.tickets as Array<{ id: number; uuid: string; contact: { name: string } }>;
          return list.find((t) => t.contact.name === "Cliente IA");
        }, 20_000, "the customer's ticket");
        assert.equal((await admin.put(`/tickets/${ticket.id}`, { status: "open", userId: adminId })).status, 200);
        const count = async () => (await admin.get(`/messages/${ticket.id}`)).body.count as number;

        // Not configured: no button.
        const page = await signedInPage(chrome, server, "admin@demo.local", { viewport: { width: 1280, height: 800 } });
        await shotOnFailure(page, "ai_suggest", async () => {
          await page.goto(`${server.url}/tickets/${ticket.uuid}`);
          const input = page.locator("textarea.composer-text");
          await input.waitFor({ timeout: 20_000 });
          await page.getByText("Vocês entregam no sábado?").first().waitFor({ timeout: 20_000 });
          assert.equal(await page.getByTestId("ai-suggest").count(), 0);

          await configure(admin, fake.url);
          await page.reload();
          const button = page.getByRole("button", { name: "Sugerir resposta" });
          await button.waitFor({ timeout: 20_000 });
          const before = await count();
          await button.click();
          await eventually(async () => (await input.inputValue()) === 'Olá! Sobre "Vocês entregam no sábado?", posso ajudar.' || undefined, 15_000, "the suggestion in the input");
          assert.equal(fake.calls.length, 1);
          const sent = fake.calls[0].body.messages as Array<{ role: string; content: string }>;
          assert.equal(sent[0].content, "Seja cordial.");
          assert.ok(sent.some((m) => m.role === "user" && m.content === "Vocês entregam no sábado?"), JSON.stringify(sent));
          // The agent edits it; nothing was sent.
          await input.fill("Entregamos sim, aos sábados até 12h!");
          assert.equal(await count(), before, "a suggestion is never sent by itself");
          await screenshot(page, "ai_suggest");

          // A failing endpoint: a toast, and the typed text stays.
          fake.state.mode = "error500";
          await button.click();
          await page.getByText("Não foi possível obter uma sugestão da IA.").waitFor({ timeout: 15_000 });
          assert.equal(await input.inputValue(), "Entregamos sim, aos sábados até 12h!");
          // Too slow: the timeout's own toast.
          fake.state.mode = "slow";
          await button.click();
          await page.getByText("A IA demorou demais para responder. Tente novamente.").waitFor({ timeout: 15_000 });
          assert.equal(await input.inputValue(), "Entregamos sim, aos sábados até 12h!");
          assert.equal(await count(), before, "the conversation is unaffected");

          // With text typed, the suggestion comes after it.
          fake.state.mode = "ok";
          fake.state.answer = "Posso ajudar em algo mais?";
          await button.click();
          await eventually(async () => (await input.inputValue()) === "Entregamos sim, aos sábados até 12h!\n\nPosso ajudar em algo mais?" || undefined, 15_000, "appended");

          await page.context().addCookies([{ name: "theme", value: "dark", url: server.url }]);
          await page.setViewportSize({ width: 390, height: 800 });
          await page.goto(`${server.url}/tickets/${ticket.uuid}`);
          await page.getByRole("button", { name: "Sugerir resposta" }).waitFor({ timeout: 20_000 });
          await assertFitsWidth(page);
          await screenshot(page, "ai_suggest_phone_dark");
        });
      }, { ...REACH_FAKES, integrationTimeoutMs: 1000 });
    } finally {
      await fake.server.shutdown();
    }
  },
});
