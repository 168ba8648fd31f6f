/**
 * Browser tests of the public flows (issue #16): a stranger signs up when the platform
 * allows it and logs in; a password is recovered end to end through a real local SMTP
 * server; /subscription shows the dates from the server's HTML; phone-width screenshots.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { withServer } from "./helpers/server.ts";
import { assertFitsWidth, hasChromium, launchBrowser, loginAs, loginToShell, screenshot } from "./helpers/browser.ts";
import { resetCodeIn, startMailbox } from "./helpers/mailbox.ts";

const opts = { ignore: !hasChromium(), sanitizeOps: false, sanitizeResources: false };
const PHONE = { width: 390, height: 844 };

/** Waits for a toast with `text`. */
async function toast(page: Page, text: string | RegExp) {
  await page.getByTestId("toast").filter({ hasText: text }).first().waitFor({ timeout: 15_000 });
}

Deno.test({
  name: "SignupForm is closed until allowregister, then a stranger signs up on a plan with the trial and logs in",
  ...opts,
  async fn() {
    await withServer(async (server) => {
      const owner = await server.login("super@balcao.local");
      await owner.put("/settings/trial", { value: "4" });
      const chrome = await launchBrowser();
      try {
        // A browser zone far from UTC: the due date (a UTC calendar day) hydrates unchanged.
        const page = await (await chrome.newContext({ viewport: PHONE, timezoneId: "Pacific/Kiritimati" })).newPage();
        const reactErrors: string[] = [];
        page.on("console", (m) => m.type() === "error" && /react|hydrat/i.test(m.text()) && reactErrors.push(m.text()));
        await page.goto(`${server.url}/signup`);
        await page.getByTestId("signup-closed").waitFor({ timeout: 20_000 });
        await page.getByRole("link", { name: "Já tem uma conta? Entre" }).waitFor();
        await page.goto(`${server.url}/login`);
        await page.getByLabel("E-mail").waitFor();
        assert.equal(await page.getByRole("link", { name: /Cadastre-se/ }).count(), 0, "no sign-up link while viewregister is off");

        await owner.put("/settings/allowregister", { value: "enabled" });
        await owner.put("/settings/viewregister", { value: "enabled" });
        await page.reload();
        await page.getByRole("link", { name: /Cadastre-se/ }).click();
        await page.waitForURL(/\/signup$/);
        const form = page.getByTestId("signup-form");
        await form.getByText("Teste grátis por 4 dia(s)", { exact: false }).waitFor({ timeout: 20_000 });

        // The schema's messages, in the browser, before any call.
        const posts: string[] = [];
        page.on("request", (r) => r.method() === "POST" && r.url().endsWith("/companies/cadastro") && posts.push(r.url()));
        await page.getByTestId("signup-submit").click();
        await form.getByText("Obrigatório").first().waitFor({ timeout: 10_000 });
        await form.getByLabel("E-mail").fill("joana");
        await form.getByLabel("Telefone (WhatsApp)").fill("123");
        await page.getByTestId("signup-submit").click();
        await form.getByText("E-mail inválido").waitFor({ timeout: 10_000 });
        await form.getByText("Muito curto!").first().waitFor();
        assert.deepEqual(posts, [], "invalid forms never reach the server");

        // A taken company name, then a taken e-mail: the spec's wording on the field.
        await form.getByLabel("Nome da empresa").fill("Demo");
        await form.getByLabel("Nome completo").fill("Joana Lima");
        await form.getByLabel("E-mail").fill("joana@padaria.local");
        await form.getByLabel("Telefone (WhatsApp)").fill("5511999990000");
        await form.getByLabel("Senha").fill("segredo1");
        assert.equal(await form.getByLabel("País").inputValue() !== "", true);
        await page.getByTestId("signup-submit").click();
        await form.getByText("Verifique se já existe uma empresa com o mesmo nome", { exact: false }).waitFor({ timeout: 10_000 });
        await form.getByLabel("Nome da empresa").fill("Padaria Estrela");
        await form.getByLabel("E-mail").fill("admin@demo.local");
        await page.getByTestId("signup-submit").click();
        await form.getByText("Já existe um usuário com este e-mail.").waitFor({ timeout: 10_000 });
        await form.getByLabel("E-mail").fill("joana@padaria.local");
        await assertFitsWidth(page, "/signup");
        await screenshot(page, "signup");

        await page.getByTestId("signup-submit").click();
        await page.waitForURL(/\/login$/, { timeout: 20_000 });
        await toast(page, "Cadastro realizado com sucesso!");

        // The new admin logs in; the subscription page shows the trial from the server's HTML.
        await loginAs(page, server.url, "joana@padaria.local", "segredo1");
        const html = await page.evaluate(async () => (await fetch("/subscription", { headers: { accept: "text/html" } })).text());
        assert.match(html, /joana@padaria\.local/);
        assert.match(html, /Seu período de teste termina em/);
        await page.goto(`${server.url}/subscription`);
        const card = page.getByTestId("subscription");
        await card.getByTestId("subscription-email").filter({ hasText: "joana@padaria.local" }).waitFor({ timeout: 20_000 });
        const due = new Date(Date.now() + 4 * 86_400_000);
        const two = (n: number) => String(n).padStart(2, "0");
        await card.getByTestId("subscription-due").filter({
          hasText: `${two(due.getUTCDate())}/${two(due.getUTCMonth() + 1)}/${due.getUTCFullYear()}`,
        }).waitFor();
        const action = card.getByTestId("subscription-action");
        assert.equal((await action.textContent())?.trim(), "Assine Agora");
        // It opens the checkout for the trial's invoice (issued at sign-up, due within 10 days).
        await action.click();
        await page.getByRole("dialog").getByText("Falta pouco!").waitFor({ timeout: 10_000 });
        await page.getByRole("dialog").getByTestId("checkout-plan").waitFor();
        await page.keyboard.press("Escape");
        await assertFitsWidth(page, "/subscription");
        await screenshot(page, "subscription");
        assert.deepEqual(reactErrors, [], "no hydration or render errors");
      } finally {
        await chrome.close();
      }
    });
  },
});

Deno.test({
  name: "ForgotPassword recovers a password end to end through a local SMTP server",
  ...opts,
  async fn() {
    const mailbox = await startMailbox();
    try {
      await withServer(async (server) => {
        await mailbox.useFor(await server.login("super@balcao.local"));
        const chrome = await launchBrowser();
        try {
          const page = await (await chrome.newContext({ viewport: PHONE })).newPage();
          await page.goto(`${server.url}/login`);
          await page.getByRole("link", { name: "Esqueceu a senha?" }).click();
          await page.waitForURL(/\/forgotpassword$/);
          const email = page.getByTestId("forgot-email");
          // An address without an account reads like one with (issue #38): no mail comes.
          await email.getByLabel("E-mail").fill("ninguem@nada.local");
          await email.getByRole("button", { name: "Enviar código" }).click();
          await toast(page, "Se ninguem@nada.local tiver uma conta, enviamos um código para ele. O código vale por 30 minutos.");
          // By keyboard: leaving the empty code field shows 'Required' and moves the button.
          await page.getByTestId("forgot-token").getByRole("button", { name: "Usar outro e-mail" }).focus();
          await page.keyboard.press("Enter");
          await email.getByLabel("E-mail").fill("supervisor@demo.local");
          await email.getByRole("button", { name: "Enviar código" }).click();

          const tokenStep = page.getByTestId("forgot-token");
          await tokenStep.waitFor({ timeout: 15_000 });
          const code = resetCodeIn(await mailbox.next());
          await tokenStep.getByLabel("Código").fill("ZZZZ-ZZZZ");
          await tokenStep.getByRole("button", { name: "Validar código" }).click();
          await toast(page, "Token inválido, tente novamente");
          await tokenStep.getByLabel("Código").fill(code);
          await tokenStep.getByRole("button", { name: "Validar código" }).click();
          await toast(page, "Token válido");

          const passwordStep = page.getByTestId("forgot-password");
          await passwordStep.getByLabel("Nova senha", { exact: true }).fill("senha-nova");
          await passwordStep.getByLabel("Confirme a nova senha").fill("senha-velha");
          await passwordStep.getByRole("button", { name: "Redefinir senha" }).click();
          await passwordStep.getByText("As novas senhas não são iguais").waitFor({ timeout: 10_000 });
          await assertFitsWidth(page, "/forgotpassword");
          await screenshot(page, "forgotpassword_steps");
          await passwordStep.getByLabel("Confirme a nova senha").fill("senha-nova");
          await passwordStep.getByRole("button", { name: "Redefinir senha" }).click();
          await page.waitForURL(/\/login$/, { timeout: 20_000 });
          await toast(page, "Usuário atualizado com sucesso!");

          assert.equal((await server.client().post("/auth/login", { email: "supervisor@demo.local", password: "demo1234" })).status, 401);
          await loginAs(page, server.url, "supervisor@demo.local", "senha-nova");
        } finally {
          await chrome.close();
        }
      });
    } finally {
      await mailbox.close();
    }
  },
});

Deno.test({
  name: "SubscriptionPage: 'Mudar Plano' for a company past its trial, the gate for a plain user",
  ...opts,
  async fn() {
    await withServer(async (server) => {
      const chrome = await launchBrowser();
      try {
        const admin = await (await chrome.newContext()).newPage();
        await loginToShell(admin, server.url, "admin@demo.local");
        await admin.goto(`${server.url}/subscription`);
        const card = admin.getByTestId("subscription");
        await card.getByTestId("subscription-action").filter({ hasText: "Mudar Plano" }).waitFor({ timeout: 20_000 });
        await card.getByText("Próxima cobrança em").waitFor();
        await admin.evaluate(() => document.documentElement.setAttribute("data-theme", "dark"));
        await screenshot(admin, "subscription_dark");

        // The public pages under the dark theme, at desktop width.
        const visitor = await (await chrome.newContext()).newPage();
        await visitor.goto(`${server.url}/forgotpassword`);
        await visitor.getByTestId("forgot-email").waitFor({ timeout: 20_000 });
        await visitor.evaluate(() => document.documentElement.setAttribute("data-theme", "dark"));
        await screenshot(visitor, "forgotpassword_dark");

        const agent = await (await chrome.newContext()).newPage();
        await loginToShell(agent, server.url, "agent@demo.local");
        await agent.goto(`${server.url}/subscription`);
        await agent.getByText("Sem permissão para acessar!").first().waitFor({ timeout: 20_000 });
        assert.equal(await agent.getByTestId("subscription").count(), 0);
      } finally {
        await chrome.close();
      }
    });
  },
});
