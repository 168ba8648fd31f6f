/**
 * Browser tests of the platform owner's Planos and Ajuda tabs of /settings (spec 001 §2.8,
 * §2.9, §3, §8, §9) and of the help admin on /helps: the first data in the server's HTML,
 * validation, create, the failure wording of a taken name, a row click loading the form,
 * update, delete with the §8 confirmation, useInternal's inverted 'Sim' checked through the
 * API, a help created in the tab reaching an agent's Help screen live, who sees the admin,
 * phone width and screenshots.
 */
import assert from "node:assert/strict";
import type { Client, TestServer } from "./helpers/server.ts";
import { assertFitsWidth, hasChromium, launchBrowser, loginToShell, screenshot } from "./helpers/browser.ts";
import { withServerAndBrowser } from "./helpers/browser_session.ts";

const opts = { ignore: !hasChromium(), sanitizeOps: false, sanitizeResources: false };
const SAVED = "Operação realizada com sucesso!";

/** A browser test with a server, the super user's API client and a Chromium closed afterwards. */
function superTest(name: string, fn: (server: TestServer, chrome: Awaited<ReturnType<typeof launchBrowser>>, owner: Client) => Promise<void>) {
  Deno.test({
    name,
    ...opts,
    async fn() {
      await withServerAndBrowser(async (server, chrome) => {
        await fn(server, chrome, await server.login("super@balcao.local"));
      });
    },
  });
}

superTest("Planos tab: super creates, edits (row → form) and deletes plans; useInternal 'Sim' stores false; others have no tab", async (server, chrome, owner) => {
  const page = await (await chrome.newContext()).newPage();
  const reactErrors: string[] = [];
  page.on("console", (m) => m.type() === "error" && /react|hydrat/i.test(m.text()) && reactErrors.push(m.text()));
  await loginToShell(page, server.url, "super@balcao.local");

  // The tab's first data is in the server's HTML, the price in BRL with 2 decimals.
  const html = await page.evaluate(async () => (await fetch("/settings?tab=plans", { headers: { accept: "text/html" } })).text());
  assert.match(html, /Completo/);
  assert.match(html, /R\$\s199,90/);
  await page.goto(`${server.url}/settings?tab=plans`);
  const table = page.getByTestId("plan-table");
  const form = page.getByTestId("plan-form");
  await table.getByText("Completo").waitFor({ timeout: 20_000 });

  // Validation by the server's own schema: no call for an invalid form.
  const posts: string[] = [];
  page.on("request", (r) => r.method() === "POST" && new URL(r.url()).pathname === "/plans" && posts.push(r.url()));
  await form.getByLabel("Nome").fill("B");
  await page.getByTestId("plan-save").click();
  await form.getByText("Muito curto!").waitFor({ timeout: 10_000 });
  assert.deepEqual(posts, []);

  // Create: every select starts on 'Sim'; Kanban set to 'Não'.
  await form.getByLabel("Nome").fill("Básico");
  await form.getByLabel("Usuários").fill("3");
  await form.getByLabel("Conexões").fill("1");
  await form.getByLabel("Filas").fill("2");
  await form.getByLabel("Valor").fill("1234.5");
  assert.equal(await form.getByLabel("Interno", { exact: true }).locator("option:checked").innerText(), "Sim");
  await form.getByLabel("Kanban", { exact: true }).selectOption({ label: "Não" });
  const started = Date.now();
  await page.getByTestId("plan-save").click();
  await page.getByText(SAVED).first().waitFor({ timeout: 10_000 });
  assert.ok(Date.now() - started >= 500, "the spec's 500 ms submit delay");
  const row = table.locator("tr", { hasText: "Básico" });
  await row.waitFor();
  assert.match(await row.innerText(), /R\$\s1\.234,50/);
  assert.equal(await form.getByLabel("Nome").inputValue(), "", "a save clears the form");
  let plan = (await owner.get("/plans/all")).body.find((p: { name: string }) => p.name === "Básico");
  assert.equal(plan.useInternal, false, "'Sim' on useInternal stores false");
  assert.equal(plan.useKanban, false);
  assert.equal(plan.useAI, true);
  assert.equal(plan.value, 1234.5);

  // A taken name: the spec's wording with 'plano'.
  await form.getByLabel("Nome").fill("completo");
  await page.getByTestId("plan-save").click();
  const failure = "Não foi possível realizar a operação. Verifique se já existe uma plano com o mesmo nome ou se os campos foram preenchidos corretamente";
  await page.getByTestId("toast").filter({ hasText: failure }).waitFor({ timeout: 10_000 });
  await form.getByText(failure).waitFor(); // and on the name field, as the server named it
  await page.getByTestId("plan-clear").click();
  assert.equal(await form.getByLabel("Nome").inputValue(), "");

  // A row click loads the form (update mode); 'Não' on useInternal stores true.
  await row.getByText("Básico").click();
  assert.equal(await form.getByLabel("Nome").inputValue(), "Básico");
  assert.equal(await form.getByLabel("Kanban", { exact: true }).locator("option:checked").innerText(), "Não");
  await form.getByText("Editando: Básico").waitFor();
  await form.getByLabel("Usuários").fill("5");
  await form.getByLabel("Interno", { exact: true }).selectOption({ label: "Não" });
  await page.getByTestId("plan-save").click();
  await page.getByText(SAVED).first().waitFor({ timeout: 10_000 });
  await form.getByText("Editando: Básico").waitFor({ state: "detached", timeout: 10_000 });
  plan = (await owner.get(`/plans/${plan.id}`)).body;
  assert.equal(plan.users, 5);
  assert.equal(plan.useInternal, true, "'Não' on useInternal stores true");
  await row.getByText("5", { exact: true }).waitFor();
  await row.getByText("Básico").click();
  assert.equal(await form.getByLabel("Interno", { exact: true }).locator("option:checked").innerText(), "Não");
  await screenshot(page, "settings_plans");
  assert.deepEqual(reactErrors, [], "the server's table (prices in BRL) hydrates without a mismatch");

  // Delete with the §8 confirmation.
  await page.getByTestId("plan-delete").click();
  await page.getByRole("dialog").getByText("Exclusão de Registro").waitFor();
  await page.getByText("Deseja realmente excluir esse registro?").waitFor();
  await page.getByTestId("confirm").click();
  await row.waitFor({ state: "detached", timeout: 10_000 });
  assert.equal((await owner.get(`/plans/${plan.id}`)).status, 404);
  // A plan in use cannot go: the §8 delete failure.
  await table.locator("tr", { hasText: "Completo" }).getByRole("button", { name: "Excluir" }).click();
  await page.getByTestId("confirm").click();
  await page.getByText("Não foi possível realizar a operação", { exact: true }).first().waitFor({ timeout: 10_000 });
  await table.getByText("Completo").waitFor();

  // Phone width: the form stacks, the table scrolls inside its frame.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await table.getByText("Completo").waitFor({ timeout: 20_000 });
  await assertFitsWidth(page, "/settings?tab=plans");
  await screenshot(page, "settings_plans_phone");
  await page.evaluate(() => document.documentElement.setAttribute("data-theme", "dark"));
  await screenshot(page, "settings_plans_phone_dark");

  // An admin has no Planos tab (the server refuses the calls: tests/plans_test.ts); opened by
  // link, it is the super-only screens' answer (001 §2.7, §8), then /.
  const adminPage = await (await chrome.newContext()).newPage();
  await loginToShell(adminPage, server.url, "admin@demo.local");
  await adminPage.goto(`${server.url}/settings?tab=plans`);
  await adminPage.getByTestId("gate-notice").getByText("Sem permissão para acessar!").waitFor({ timeout: 20_000 });
  assert.equal(await adminPage.getByTestId("plan-form").count(), 0);
  await adminPage.waitForURL((url) => url.pathname === "/", { timeout: 10_000 });
  await adminPage.goto(`${server.url}/settings`);
  await adminPage.getByRole("tab", { name: "Opções" }).waitFor({ timeout: 20_000 });
  assert.equal(await adminPage.getByRole("tab", { name: "Planos" }).count(), 0);
});

superTest("Ajuda tab and /helps: super creates, edits and deletes help entries, an agent's Help screen follows live without the admin", async (server, chrome, owner) => {
  const agentPage = await (await chrome.newContext()).newPage();
  await loginToShell(agentPage, server.url, "agent@demo.local");
  await agentPage.goto(`${server.url}/helps`);
  const cards = agentPage.getByTestId("help-list");
  await cards.waitFor({ timeout: 20_000 });
  assert.equal(await agentPage.getByTestId("help-admin").count(), 0, "an agent sees the list only");

  const page = await (await chrome.newContext()).newPage();
  const reactErrors: string[] = [];
  page.on("console", (m) => m.type() === "error" && /react|hydrat/i.test(m.text()) && reactErrors.push(m.text()));
  await loginToShell(page, server.url, "super@balcao.local");
  await page.goto(`${server.url}/settings?tab=helps`);
  const table = page.getByTestId("help-table");
  const form = page.getByTestId("help-form");
  await form.waitFor({ timeout: 20_000 });

  await page.getByTestId("help-save").click();
  await form.getByText("Obrigatório").waitFor({ timeout: 10_000 });
  await form.getByLabel("Título").fill("Etiquetas no atendimento");
  await form.getByLabel("Descrição").fill("Marque tickets com etiquetas para achá-los depois.");
  await form.getByLabel("Vídeo").fill("dQw4w9WgXcQ");
  await page.getByTestId("help-save").click();
  await page.getByText(SAVED).first().waitFor({ timeout: 10_000 });
  await table.getByText("Etiquetas no atendimento").waitFor({ timeout: 10_000 });
  // The agent's Help screen gets it live, with its player.
  await cards.getByText("Etiquetas no atendimento").waitFor({ timeout: 10_000 });
  assert.equal(await cards.locator('iframe[src="https://www.youtube.com/embed/dQw4w9WgXcQ"]').count(), 1);
  const created = (await owner.get("/helps/list")).body.find((h: { title: string }) => h.title === "Etiquetas no atendimento");
  assert.equal(created.video, "dQw4w9WgXcQ");

  // Row → form, update; another super's change arrives live in the table.
  await table.getByText("Etiquetas no atendimento").click();
  assert.equal(await form.getByLabel("Título").inputValue(), "Etiquetas no atendimento");
  await form.getByLabel("Título").fill("Etiquetas e filtros");
  await page.getByTestId("help-save").click();
  await table.getByText("Etiquetas e filtros").waitFor({ timeout: 10_000 });
  await cards.getByText("Etiquetas e filtros").waitFor({ timeout: 10_000 });
  assert.equal((await owner.get(`/helps/${created.id}`)).body.title, "Etiquetas e filtros");
  await owner.post("/helps", { title: "Criada por outra aba", description: "", video: "" });
  await table.getByText("Criada por outra aba").waitFor({ timeout: 10_000 });
  await screenshot(page, "settings_helps");

  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await table.getByText("Etiquetas e filtros").waitFor({ timeout: 20_000 });
  await assertFitsWidth(page, "/settings?tab=helps");
  await screenshot(page, "settings_helps_phone");
  await page.setViewportSize({ width: 1280, height: 800 });

  // /helps for the super: the admin above the list; delete there with the confirmation.
  await page.goto(`${server.url}/helps`);
  const admin = page.getByTestId("help-admin");
  await admin.getByTestId("help-table").getByText("Etiquetas e filtros").waitFor({ timeout: 20_000 });
  await page.getByTestId("help-list").getByText("Etiquetas e filtros").waitFor();
  await screenshot(page, "helps_admin");
  assert.deepEqual(reactErrors, [], "no hydration or render errors on /settings?tab=helps nor on /helps");
  await admin.getByTestId("help-table").locator("tr", { hasText: "Etiquetas e filtros" }).getByRole("button", { name: "Excluir" }).click();
  await page.getByText("Deseja realmente excluir esse registro?").waitFor();
  await page.getByTestId("confirm").click();
  await admin.getByTestId("help-table").getByText("Etiquetas e filtros").waitFor({ state: "detached", timeout: 10_000 });
  // A delete clears the form (the row may leave first, by the live event, under load).
  await admin.getByText("Editando:").waitFor({ state: "detached", timeout: 10_000 });
  await cards.getByText("Etiquetas e filtros").waitFor({ state: "detached", timeout: 10_000 });
  assert.equal((await owner.get(`/helps/${created.id}`)).status, 404);
  assert.equal(await agentPage.getByTestId("help-admin").count(), 0);
});
