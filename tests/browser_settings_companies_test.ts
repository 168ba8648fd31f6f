/**
 * Browser tests of the platform owner's companies screens (spec 001 §2.6, §2.7, §5, §8):
 * Cadastrar Empresa with the sign-up's validation texts, the new admin logging in from a
 * second browser; Empresas' table tinted by status, a row loaded into the form (click and
 * Enter), update, create with the one-month default due date, a taken name, the 'Usuário'
 * modal creating a user of that company, delete with the confirmation; /companies as its
 * own page (server HTML, 390 px) and the gate for an admin.
 */
import assert from "node:assert/strict";
import type { Locator, Page } from "playwright-core";
import { withServer } from "./helpers/server.ts";
import { assertFitsWidth, hasChromium, launchBrowser, loginAs, loginToShell, screenshot } from "./helpers/browser.ts";
import { signedInPage, withServerAndBrowser } from "./helpers/browser_session.ts";

const opts = { ignore: !hasChromium(), sanitizeOps: false, sanitizeResources: false };
const DAY = 86_400_000;
const SAVED = "Operação realizada com sucesso!";

/** The tint class of the table row holding `text`. */
async function rowTint(page: Page, text: string): Promise<string | null> {
  return await page.getByTestId("companies-table").locator("tr", { hasText: text }).getAttribute("class");
}

/** Collects React's console errors (a hydration mismatch among them) on `page`. */
function watchReactErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (m) => m.type() === "error" && /react|hydrat/i.test(m.text()) && errors.push(m.text()));
  return errors;
}

const SIGNUP_LABELS = ["Nome completo", "Nome da empresa", "E-mail", "Senha", "Telefone"];

/** Fills Cadastrar Empresa's text fields in SIGNUP_LABELS order, and picks the first plan when `plan`. */
async function fillSignup(form: Locator, values: string[], plan = true): Promise<void> {
  for (const [i, label] of SIGNUP_LABELS.entries()) await form.getByLabel(label).fill(values[i]);
  if (plan) await form.getByLabel("Plano").selectOption({ index: 1 });
}

Deno.test({
  name: "Cadastrar Empresa signs up a company and its admin, who then logs in; Empresas tints, loads, updates, creates, deletes",
  ...opts,
  async fn() {
    await withServer(async (server) => {
      const owner = await server.login("super@balcao.local");
      const chrome = await launchBrowser();
      try {
        // Another time zone than the server's: due dates must draw the same day on both sides.
        const page = await (await chrome.newContext({ timezoneId: "America/Sao_Paulo" })).newPage();
        const reactErrors = watchReactErrors(page);
        await loginToShell(page, server.url, "super@balcao.local");

        // Cadastrar Empresa: the schema's texts before any call.
        const posts: string[] = [];
        page.on("request", (r) => r.method() === "POST" && new URL(r.url()).pathname === "/companies/internal" && posts.push(r.url()));
        await page.goto(`${server.url}/settings?tab=newCompany`);
        const signup = page.getByTestId("new-company-form");
        await signup.waitFor({ timeout: 20_000 });
        assert.equal(await signup.getByLabel("País").inputValue().then((i) => signup.getByLabel("País").locator(`option[value="${i}"]`).textContent()), "Brasil");
        await signup.getByTestId("new-company-save").click();
        await signup.getByText("Obrigatório").first().waitFor({ timeout: 10_000 });
        assert.deepEqual(await signup.locator(".field-error").allTextContents(), Array(6).fill("Obrigatório"));
        await fillSignup(signup, ["D", "x".repeat(51), "nao-e-email", "123", "1234"], false);
        await signup.getByTestId("new-company-save").click();
        await signup.getByText("E-mail inválido").waitFor({ timeout: 10_000 });
        assert.equal(await signup.getByText("Muito curto!").count(), 3);
        assert.equal(await signup.getByText("Muito longo!").count(), 1);
        await screenshot(page, "settings_new_company");
        assert.deepEqual(posts, [], "invalid forms never reach the server");
        await fillSignup(signup, ["Dona Flor", "Floricultura", "dona@flor.local", "flores123", "5511988887777"]);
        const before = Date.now();
        await signup.getByTestId("new-company-save").click();
        await page.getByText(SAVED).first().waitFor({ timeout: 10_000 });
        assert.equal(await signup.getByLabel("Nome da empresa").inputValue(), "", "the form is cleared");
        const flor = (await owner.get("/companies/?searchParam=Floricultura")).body.companies[0];
        assert.equal(flor.status, true);
        assert.equal(flor.recurrence, "MENSAL");
        assert.equal(flor.pais, "BR");
        const due = Date.parse(flor.dueDate);
        assert.ok(due >= before + 3 * DAY - 1000 && due <= Date.now() + 3 * DAY, flor.dueDate);

        // The new admin logs in from another browser and lands in the app.
        const other = await (await chrome.newContext()).newPage();
        await loginAs(other, server.url, "dona@flor.local", "flores123");
        await other.getByText("Olá").first().waitFor({ timeout: 20_000 });
        assert.match(other.url(), /\/tickets/);

        // A taken e-mail is refused at its field.
        await fillSignup(signup, ["Outra Pessoa", "Outra Loja", "dona@flor.local", "12345", "5511988886666"]);
        await signup.getByTestId("new-company-save").click();
        await signup.getByText("Este e-mail já está em uso.").waitFor({ timeout: 10_000 });

        // Empresas: the first page is in the server's HTML; rows tinted by status.
        const html = await page.evaluate(async () => (await fetch("/settings?tab=companies", { headers: { accept: "text/html" } })).text());
        assert.match(html, /Floricultura/);
        await page.goto(`${server.url}/settings?tab=companies`);
        const table = page.getByTestId("companies-table");
        await table.getByText("Floricultura").waitFor({ timeout: 20_000 });
        assert.match(await rowTint(page, "Floricultura") ?? "", /row-success/);
        const form = page.getByTestId("company-form");

        // A click on the row loads it; the form switches to update; toggling status re-tints.
        await table.locator("tr", { hasText: "Floricultura" }).locator("td").nth(2).click();
        await form.getByText("Editar empresa Floricultura").waitFor({ timeout: 10_000 });
        assert.equal(await form.getByLabel("Nome", { exact: true }).inputValue(), "Floricultura");
        assert.equal(await form.getByLabel("Data de vencimento").inputValue(), flor.dueDate.slice(0, 10));
        await form.getByLabel("Ativa").uncheck();
        await form.getByLabel("Telefone").fill("5511900001111");
        await form.getByTestId("company-save").click();
        await page.getByText(SAVED).first().waitFor({ timeout: 10_000 });
        await form.getByText("Nova empresa").waitFor({ timeout: 10_000 });
        await table.locator("tr.row-danger", { hasText: "Floricultura" }).waitFor({ timeout: 10_000 });
        const updated = (await owner.get(`/companies/${flor.id}`)).body;
        assert.equal(updated.status, false);
        assert.equal(updated.phone, "5511900001111");

        // Enter on a row's name loads it too (keyboard).
        await table.getByRole("button", { name: "Carregar Demo no formulário" }).focus();
        await page.keyboard.press("Enter");
        await form.getByText("Editar empresa Demo").waitFor({ timeout: 10_000 });
        await form.getByRole("button", { name: "Limpar" }).click();
        await form.getByText("Nova empresa").waitFor();

        // Create: the due date defaults to one month from now; e-mail required; a taken name refused.
        const expected = new Date();
        expected.setUTCMonth(expected.getUTCMonth() + 1);
        assert.equal(await form.getByLabel("Data de vencimento").inputValue(), expected.toISOString().slice(0, 10));
        await form.getByLabel("Nome", { exact: true }).fill("Padaria");
        await form.getByTestId("company-save").click();
        await form.getByText("Obrigatório").waitFor({ timeout: 10_000 });
        await form.getByLabel("E-mail").fill("contato@padaria.local");
        await form.getByLabel("Plano").selectOption({ label: "Completo" });
        await form.getByTestId("company-save").click();
        await table.getByRole("button", { name: "Carregar Padaria no formulário" }).waitFor({ timeout: 10_000 });
        assert.match(await rowTint(page, "Padaria") ?? "", /row-success/);
        await form.getByLabel("Nome", { exact: true }).fill("demo");
        await form.getByLabel("E-mail").fill("x@y.local");
        await form.getByTestId("company-save").click();
        await page.getByText("Verifique se já existe uma empresa com o mesmo nome").first().waitFor({ timeout: 10_000 });
        await form.getByRole("button", { name: "Limpar" }).click();

        // 'Usuário' opens the user modal for the loaded company.
        await table.locator("tr", { hasText: "Padaria" }).click();
        await form.getByText("Editar empresa Padaria").waitFor({ timeout: 10_000 });
        await form.getByRole("button", { name: "Usuário" }).click();
        const dialog = page.getByRole("dialog");
        await dialog.getByLabel("Nome").fill("Padeiro");
        await dialog.getByLabel("Senha").fill("12345");
        await dialog.getByLabel("E-mail").fill("padeiro@padaria.local");
        await dialog.getByLabel("Perfil").selectOption({ label: "Administrador" });
        await dialog.getByTestId("user-save").click();
        await dialog.waitFor({ state: "detached", timeout: 10_000 });
        const padaria = (await owner.get("/companies/?searchParam=Padaria")).body.companies[0];
        const staff = (await owner.get(`/users/?companyId=${padaria.id}`)).body.users;
        assert.deepEqual(staff.map((u: { email: string; profile: string }) => [u.email, u.profile]), [["padeiro@padaria.local", "admin"]]);

        // Delete with the §8 confirmation; the form goes back to a new company.
        await form.getByRole("button", { name: "Excluir" }).click();
        await page.getByRole("dialog").getByText("Exclusão de Registro").waitFor();
        await page.getByText("Deseja realmente excluir esse registro?").waitFor();
        await page.getByTestId("confirm").click();
        await table.getByRole("button", { name: "Carregar Padaria no formulário" }).waitFor({ state: "detached", timeout: 10_000 });
        await form.getByText("Nova empresa").waitFor();
        assert.equal((await owner.get(`/companies/${padaria.id}`)).status, 404);

        // The screen at rest: a company loaded, the tints visible (no row hovered, toasts gone).
        await table.locator("tr", { hasText: "Floricultura" }).click();
        await form.getByText("Editar empresa Floricultura").waitFor({ timeout: 10_000 });
        await page.mouse.move(0, 0);
        await page.getByText(SAVED).first().waitFor({ state: "detached", timeout: 10_000 });
        await screenshot(page, "settings_companies");
        assert.deepEqual(reactErrors, [], "no hydration or render errors on the companies tabs");
        await page.evaluate(() => document.documentElement.setAttribute("data-theme", "dark"));
        await screenshot(page, "settings_companies_dark");
        await page.evaluate(() => document.documentElement.setAttribute("data-theme", "light"));
        await form.getByRole("button", { name: "Limpar" }).click();

        // Search narrows the table on the server.
        await page.getByTestId("companies-screen").getByRole("searchbox").fill("flori");
        await table.getByRole("button", { name: "Carregar Demo no formulário" }).waitFor({ state: "detached", timeout: 10_000 });
        await table.getByText("Floricultura").waitFor();
      } finally {
        await chrome.close();
      }
    });
  },
});

Deno.test({
  name: "/companies renders the Empresas screen for super (server HTML, 390 px) and gates an admin",
  ...opts,
  async fn() {
    await withServer(async (server) => {
      const chrome = await launchBrowser();
      try {
        const page = await (await chrome.newContext({ viewport: { width: 390, height: 844 }, timezoneId: "Asia/Tokyo" })).newPage();
        const reactErrors = watchReactErrors(page);
        await loginToShell(page, server.url, "super@balcao.local");
        const html = await page.evaluate(async () => (await fetch("/companies", { headers: { accept: "text/html" } })).text());
        assert.match(html, /data-testid="companies-table"/);
        assert.match(html, /Demo/);
        await page.goto(`${server.url}/companies`);
        const table = page.getByTestId("companies-table");
        await table.getByRole("button", { name: "Carregar Demo no formulário" }).waitFor({ timeout: 20_000 });
        assert.match(await rowTint(page, "Demo") ?? "", /row-success/);
        await assertFitsWidth(page, "/companies");
        await table.scrollIntoViewIfNeeded();
        await screenshot(page, "settings_companies_phone");
        await page.goto(`${server.url}/settings?tab=newCompany`);
        await page.getByTestId("new-company-form").waitFor({ timeout: 20_000 });
        await assertFitsWidth(page, "Cadastrar Empresa");
        await screenshot(page, "settings_new_company_phone");
        assert.deepEqual(reactErrors, [], "no hydration or render errors on /companies nor on Cadastrar Empresa");

        const admin = await (await chrome.newContext()).newPage();
        await loginToShell(admin, server.url, "admin@demo.local");
        await admin.goto(`${server.url}/companies`);
        await admin.getByTestId("gate-notice").getByText("Sem permissão para acessar!").waitFor({ timeout: 20_000 });
        assert.equal(await admin.getByTestId("companies-table").count(), 0);
        await admin.waitForURL((url) => url.pathname === "/" || url.pathname.startsWith("/tickets"), { timeout: 10_000 });
      } finally {
        await chrome.close();
      }
    });
  },
});

Deno.test({
  name: "/settings?tab=<super-only tab> gives an admin 'Sem permissão para acessar!' and sends them to / after 0.5 s; super opens it",
  ...opts,
  async fn() {
    await withServerAndBrowser(async (server, chrome) => {
      const admin = await signedInPage(chrome, server, "admin@demo.local");
      // The server's HTML already holds the notice instead of the tab (nor its data).
      const html = await admin.evaluate(async () => (await fetch("/settings?tab=plans", { headers: { accept: "text/html" } })).text());
      assert.match(html, /data-testid="gate-notice"[^>]*>Sem permissão para acessar!/);
      assert.doesNotMatch(html, /data-testid="settings-options"/);
      for (const tab of ["plans", "newCompany"]) {
        await admin.goto(`${server.url}/settings?tab=${tab}`);
        await admin.getByTestId("toast").getByText("Sem permissão para acessar!").waitFor({ timeout: 20_000 });
        await admin.waitForURL((url) => url.pathname === "/", { timeout: 10_000 });
      }
      // A tab the admin sees stays where it is.
      await admin.goto(`${server.url}/settings?tab=options`);
      await admin.getByTestId("settings-options").waitFor({ timeout: 20_000 });
      assert.equal(new URL(admin.url()).pathname, "/settings");

      const owner = await signedInPage(chrome, server, "super@balcao.local");
      await owner.goto(`${server.url}/settings?tab=plans`);
      await owner.getByRole("tab", { name: "Planos", selected: true }).waitFor({ timeout: 20_000 });
      assert.equal(await owner.getByTestId("gate-notice").count(), 0);
    });
  },
});
