/**
 * Browser test of /ratings (spec 002 §2.11, §5) with the public survey (§2.16): the first
 * page is in the server's HTML; a rating is created in the dialog (the spec's messages first:
 * 'Obrigatório', 'nome muito curto', a non-numeric value; option rows added and removed),
 * edited, changed live by another user; then a ticket resolved with userRating on sends it to
 * the customer through the simulator, and the customer answers it on /survey; finally it is
 * deleted with the §8 confirmation. Phone width in the dark theme. Screenshots: ratings,
 * ratings_dialog, ratings_phone_dark.
 */
import assert from "node:assert/strict";
import { demoConnection, eventually } from "./helpers/channels.ts";
import { demoTicket, setSettings } from "./helpers/fixtures.ts";
import { assertFitsWidth, hasChromium, screenshot } from "./helpers/browser.ts";
import { signedInPage, withServerAndBrowser } from "./helpers/browser_session.ts";

const opts = { ignore: !hasChromium(), sanitizeOps: false, sanitizeResources: false };

Deno.test({
  name: "RatingsPage creates a rating through its dialog that a customer then answers on /survey; edits, live rows, delete, 390 px dark",
  ...opts,
  async fn() {
    await withServerAndBrowser(async (server, chrome) => {
      const admin = await server.login("admin@demo.local");
      const seeded = await admin.post("/ratings", { name: "Pesquisa antiga", message: "Nota?", options: [{ name: "Boa", value: 1 }] });
      assert.equal(seeded.status, 200, JSON.stringify(seeded.body));
      const page = await signedInPage(chrome, server, "supervisor@demo.local");

      const html = await page.evaluate(async () => (await fetch("/ratings", { headers: { accept: "text/html" } })).text());
      assert.match(html, /Pesquisa antiga/, "the first page is in the server's HTML");
      await page.goto(`${server.url}/ratings`);
      const table = page.getByTestId("ratings-table");
      await table.getByText("Pesquisa antiga").waitFor({ timeout: 20_000 });

      // The dialog's validation: the server's own schema, no call for an invalid form.
      const posts: string[] = [];
      page.on("request", (r) => r.method() === "POST" && new URL(r.url()).pathname === "/ratings" && posts.push(r.url()));
      await page.getByRole("button", { name: "Adicionar avaliação" }).click();
      const dialog = page.getByRole("dialog");
      await dialog.getByTestId("rating-save").click();
      await dialog.getByText("Obrigatório").first().waitFor({ timeout: 10_000 });
      await dialog.getByLabel("Nome", { exact: true }).fill("ab");
      await dialog.getByTestId("rating-save").click();
      await dialog.getByText("nome muito curto").waitFor({ timeout: 10_000 });
      await dialog.getByText("valor deve ser numérico").waitFor();
      assert.deepEqual(posts, [], "invalid forms never reach the server");

      await dialog.getByLabel("Nome", { exact: true }).fill("Pesquisa do site");
      await dialog.getByLabel("Mensagem").fill("Como você avalia o atendimento?");
      await dialog.getByLabel("Nome da opção 1").fill("Ruim");
      await dialog.getByLabel("Valor 1").fill("1");
      for (const [i, name, value] of [[2, "Regular", "3"], [3, "Apagar", "9"], [4, "Ótimo", "5"]] as const) {
        await dialog.getByRole("button", { name: "Adicionar opção" }).click();
        await dialog.getByLabel(`Nome da opção ${i}`).fill(name);
        await dialog.getByLabel(`Valor ${i}`).fill(value);
      }
      await dialog.getByRole("button", { name: "Remover opção 3" }).click();
      assert.equal(await dialog.getByLabel("Valor 3").inputValue(), "5", "the rows below a removed one move up");
      await screenshot(page, "ratings_dialog");
      await dialog.getByTestId("rating-save").click();
      await dialog.waitFor({ state: "detached", timeout: 10_000 });
      await table.getByText("Pesquisa do site").waitFor();
      const created = (await admin.get("/ratings/?searchParam=site")).body.ratings[0];
      assert.equal(created.message, "Como você avalia o atendimento?");
      assert.equal(created.geral, true);
      assert.deepEqual(created.options, [{ name: "Ruim", value: 1 }, { name: "Regular", value: 3 }, { name: "Ótimo", value: 5 }]);

      // Edit in the dialog, then a change by another user arrives live.
      await table.locator("tr", { hasText: "Pesquisa do site" }).getByRole("button", { name: "Editar" }).click();
      await dialog.getByLabel("Nome", { exact: true }).fill("Pesquisa do atendimento");
      await dialog.getByTestId("rating-save").click();
      await table.getByText("Pesquisa do atendimento").waitFor({ timeout: 10_000 });
      await admin.put(`/ratings/${seeded.body.id}`, { name: "Pesquisa antiga editada", geral: false });
      await table.getByText("Pesquisa antiga editada").waitFor({ timeout: 10_000 });
      await table.locator("tr", { hasText: "Pesquisa antiga editada" }).getByText("Inativa").waitFor();
      await admin.post("/ratings", { name: "Criada por outro", message: "Nota?", options: [{ name: "Boa", value: 1 }] });
      await table.getByText("Criada por outro").waitFor({ timeout: 10_000 });
      await screenshot(page, "ratings");

      // The customer answers it: a ticket resolved with userRating on sends the survey with
      // its link through the simulator, and /survey records the choice on the ticket.
      await setSettings(server, server.demo!.companyId, { userRating: "enabled", ratingurl: `${server.url}/survey` });
      const number = "5511966601234";
      const demo = await demoConnection(admin);
      const ticket = await demoTicket(server, number, { name: "Cliente Site" });
      const agentId = server.demo!.logins.find((l) => l.email === "agent@demo.local")!.id;
      assert.equal((await admin.put(`/tickets/${ticket.id}`, { status: "open", userId: agentId })).status, 200);
      const resolved = await admin.put(`/tickets/${ticket.id}`, { status: "closed", ratingId: created.id });
      assert.equal(resolved.status, 200, JSON.stringify(resolved.body));
      const sent = await eventually(async () => {
        const box = (await admin.get(`/simulator/${demo.id}/outbox`)).body.messages as Array<{ to: string; body: string }>;
        return box.find((m) => m.to === number && m.body.includes("chavePesquisa="));
      }, 10_000, "survey message");
      assert.match(sent.body, /Como você avalia o atendimento\?/);
      const link = /(http\S+chavePesquisa=[\w-]+)/.exec(sent.body)![1];
      const customer = await (await chrome.newContext({ viewport: { width: 390, height: 844 } })).newPage();
      await customer.goto(link);
      await customer.getByText("Como você avalia o atendimento?").waitFor({ timeout: 20_000 });
      await customer.getByTestId("survey-option-5").click();
      await customer.getByTestId("survey-thanks").waitFor({ timeout: 15_000 });
      const answered = (await admin.get(`/tickets/${ticket.id}`)).body;
      assert.equal(answered.rating, 5);
      assert.equal(answered.ratingId, created.id);

      // Delete with the §8 confirmation.
      await table.locator("tr", { hasText: "Criada por outro" }).getByRole("button", { name: "Excluir" }).click();
      await page.getByText("Deseja realmente excluir esse registro?").waitFor();
      await page.getByTestId("confirm").click();
      await table.getByText("Criada por outro").waitFor({ state: "detached", timeout: 10_000 });
      assert.equal((await admin.get("/ratings/?searchParam=outro")).body.ratings.length, 0);

      // Search narrows on the server; phone width in the dark theme still fits.
      await page.getByRole("searchbox").fill("atendimento");
      await table.getByText("Pesquisa antiga editada").waitFor({ state: "detached", timeout: 10_000 });
      await page.context().addCookies([{ name: "theme", value: "dark", url: server.url }]);
      await page.setViewportSize({ width: 390, height: 800 });
      await page.reload();
      await table.getByText("Pesquisa do atendimento").waitFor({ timeout: 20_000 });
      assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), "dark");
      await assertFitsWidth(page);
      await screenshot(page, "ratings_phone_dark");
    });
  },
});
