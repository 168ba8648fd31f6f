/**
 * The public survey page (/survey?chavePesquisa=…, spec 002 §2.16) in a real Chromium at
 * phone width: the options as big buttons, one tap records the answer and thanks, a reload
 * shows the already-answered state, an unknown key says so; pt in the light theme, en in
 * the dark theme. Screenshots: survey_phone, survey_thanks, survey_answered,
 * survey_phone_dark_en, survey_invalid_dark_en. A signed-in visitor is sent to / (002 §2.1).
 */
import assert from "node:assert/strict";
import { type TestServer, withServer } from "./helpers/server.ts";
import { assertFitsWidth, hasChromium, launchBrowser, screenshot } from "./helpers/browser.ts";
import { signedInPage, withServerAndBrowser } from "./helpers/browser_session.ts";
import { demoConnection, eventually } from "./helpers/channels.ts";
import { demoTicket } from "./helpers/fixtures.ts";

const opts = { ignore: !hasChromium(), sanitizeOps: false, sanitizeResources: false };
const PHONE = { width: 390, height: 844 };

/** Sends the demo company's survey to a new customer and returns the link it carried. */
async function surveyLink(server: TestServer, number: string, ratingId: number): Promise<{ url: string; ticketId: number }> {
  const admin = await server.login("admin@demo.local");
  const demo = await demoConnection(admin);
  const ticket = await demoTicket(server, number, { name: "Cliente Pesquisa" });
  const sent = await admin.post(`/ratings/messages/${ticket.id}`, { ratingId });
  assert.equal(sent.status, 200, JSON.stringify(sent.body));
  const message = await eventually(async () => {
    const box = (await admin.get(`/simulator/${demo.id}/outbox`)).body.messages as Array<{ to: string; body: string }>;
    return box.find((m) => m.to === number && m.body.includes("chavePesquisa="));
  }, 10_000, "survey message");
  return { url: /(http\S+chavePesquisa=[\w-]+)/.exec(message.body)![1], ticketId: ticket.id };
}

Deno.test({
  name: "/survey: big option buttons record one answer, thank the customer, then show the already-answered state (pt light, en dark, 390 px)",
  ...opts,
  async fn() {
    await withServer(async (server) => {
      const admin = await server.login("admin@demo.local");
      assert.equal((await admin.put("/settings/ratingurl", { value: `${server.url}/survey` })).status, 200);
      const created = await admin.post("/ratings", {
        name: "Pesquisa de atendimento",
        message: "Como você avalia o nosso atendimento?",
        options: [
          { name: "Péssimo", value: 1 },
          { name: "Ruim", value: 2 },
          { name: "Regular", value: 3 },
          { name: "Bom", value: 4 },
          { name: "Excelente, resolveram tudo muito rápido", value: 5 },
        ],
      });
      const first = await surveyLink(server, "5511955550001", created.body.id);
      const chrome = await launchBrowser();
      try {
        const page = await (await chrome.newContext({ viewport: PHONE })).newPage();
        const reactErrors: string[] = [];
        page.on("console", (m) => m.type() === "error" && /react|hydrat/i.test(m.text()) && reactErrors.push(m.text()));
        await page.goto(first.url);
        await page.getByTestId("survey-ask").waitFor({ timeout: 20_000 });
        await page.getByText("Como você avalia o nosso atendimento?").waitFor();
        const button = page.getByTestId("survey-option-5");
        const box = (await button.boundingBox())!;
        assert.ok(box.height >= 48 && box.width >= 300, `a big button: ${box.width}×${box.height}`);
        await assertFitsWidth(page, "the survey");
        await screenshot(page, "survey_phone");
        await button.click();
        await page.getByTestId("survey-thanks").waitFor({ timeout: 15_000 });
        await page.getByText("Obrigado pela sua avaliação!").waitFor();
        await screenshot(page, "survey_thanks");
        assert.equal((await admin.get(`/tickets/${first.ticketId}`)).body.rating, 5);

        await page.reload();
        await page.getByTestId("survey-answered").waitFor({ timeout: 20_000 });
        await page.getByText("Nota registrada: 5").waitFor();
        assert.equal(await page.getByTestId("survey-option-1").count(), 0, "no buttons once answered");
        await screenshot(page, "survey_answered");
        assert.deepEqual(reactErrors, []);

        // English, dark theme: a second customer's survey, and a link whose key names none.
        const second = await surveyLink(server, "5511955550002", created.body.id);
        const dark = await chrome.newContext({ viewport: PHONE, colorScheme: "dark" });
        const origin = new URL(server.url);
        await dark.addCookies([
          { name: "lang", value: "en", domain: origin.hostname, path: "/" },
          { name: "theme", value: "dark", domain: origin.hostname, path: "/" },
        ]);
        const en = await dark.newPage();
        await en.goto(second.url);
        await en.getByTestId("survey-ask").waitFor({ timeout: 20_000 });
        await en.getByText("Choose a score:").waitFor();
        assert.equal(await en.locator("html").getAttribute("data-theme"), "dark");
        await assertFitsWidth(en, "the survey in English");
        await screenshot(en, "survey_phone_dark_en");
        await en.goto(`${server.url}/survey?chavePesquisa=nao-existe`);
        await en.getByTestId("survey-invalid").waitFor({ timeout: 20_000 });
        await en.getByText("Survey not found.").waitFor();
        await screenshot(en, "survey_invalid_dark_en");
        await en.goto(`${server.url}/survey`);
        await en.getByTestId("survey-invalid").waitFor({ timeout: 20_000 });
        assert.equal((await admin.get(`/tickets/${second.ticketId}`)).body.rating, null);
      } finally {
        await chrome.close();
      }
    });
  },
});

Deno.test({
  name: "/survey sends a signed-in visitor to / (the public pages' route guard, spec 002 §2.1); a visitor without a session stays",
  ...opts,
  async fn() {
    await withServerAndBrowser(async (server, chrome) => {
      const admin = await server.login("admin@demo.local");
      assert.equal((await admin.put("/settings/ratingurl", { value: `${server.url}/survey` })).status, 200);
      const created = await admin.post("/ratings", { name: "Pesquisa Guarda", message: "Avalie", options: [{ name: "Bom", value: 5 }] });
      assert.ok(created.status < 300, JSON.stringify(created.body));
      const link = await surveyLink(server, "5511955550003", created.body.id);
      const page = await signedInPage(chrome, server, "admin@demo.local");
      await page.goto(link.url);
      await page.waitForURL((url) => url.pathname === "/", { timeout: 20_000 });
      // The customer's own browser (no session) keeps the survey.
      const customer = await (await chrome.newContext()).newPage();
      await customer.goto(link.url);
      await customer.getByTestId("survey-ask").waitFor({ timeout: 20_000 });
      assert.equal(new URL(customer.url()).pathname, "/survey");
    });
  },
});
