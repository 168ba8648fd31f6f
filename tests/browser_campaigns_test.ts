/**
 * Browser tests of the campaign screens (issue #19, spec 002 §2.2–2.5): the list rendered on
 * the server, a campaign created through the dialog after its §5 messages, edited with an
 * attachment, seen live, read-only when scheduled within the hour, stopped while running and
 * deleted; the report filling live as the simulator receives the messages; the settings page
 * with its §9 dropdowns and the duplicate-shortcut refusal. Desktop and 390 px dark shots.
 *
 * The contact lists are made through the contact-lists API.
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { assertFitsWidth, hasChromium, screenshot, watchSocket } from "./helpers/browser.ts";
import { signedInPage, withServerAndBrowser } from "./helpers/browser_session.ts";
import type { TestServer } from "./helpers/server.ts";

const opts = { ignore: !hasChromium(), sanitizeOps: false, sanitizeResources: false };

type Client = Awaited<ReturnType<TestServer["login"]>>;

/** The demo company's id and its simulator connection. */
async function demo(admin: Client): Promise<{ conn: { id: number; name: string } }> {
  const conn = (await admin.get("/whatsapp")).body.find((w: { name: string }) => w.name === "WhatsApp Demo");
  return { conn };
}

/** A contact list of `size` contacts made through the contact-lists API; returns its id and numbers. */
async function makeList(admin: Client, name: string, size: number): Promise<{ id: number; numbers: string[] }> {
  const list = await admin.post("/contact-lists", { name });
  assert.equal(list.status, 200, JSON.stringify(list.body));
  const numbers: string[] = [];
  for (let i = 1; i <= size; i++) {
    const number = `55119${String(list.body.id).padStart(2, "0")}${String(i).padStart(6, "0")}`;
    const item = await admin.post("/contact-list-items", { contactListId: list.body.id, name: `Cliente ${i} Teste`, number, email: `c${i}@x.com` });
    assert.equal(item.status, 200, JSON.stringify(item.body));
    numbers.push(number);
  }
  return { id: list.body.id, numbers };
}

const inHours = (h: number) => new Date(Date.now() + h * 3600_000).toISOString();

Deno.test({
  name: "CampaignsPage: server-rendered list, dialog validation and create, edit with media, live rows, read-only, delete, gate",
  ...opts,
  async fn() {
    await withServerAndBrowser(async (server, chrome) => {
      const admin = await server.login("admin@demo.local");
      const { conn } = await demo(admin);
      const list1 = await makeList(admin, "Lista 1", 3);
      const seeded = await admin.post("/campaigns", { name: "Semente", status: "INATIVA", contactListId: list1.id, whatsappId: String(conn.id), scheduledAt: inHours(3), message1: "Oi" });
      assert.equal(seeded.status, 200, JSON.stringify(seeded.body));

      const page = await signedInPage(chrome, server, "supervisor@demo.local");
      const html = await page.evaluate(async () => (await fetch("/campaigns", { headers: { accept: "text/html" } })).text());
      assert.match(html, /Semente/, "the first page is in the server's HTML");
      await page.goto(`${server.url}/campaigns`);
      const table = page.getByTestId("campaigns-table");
      const seededRow = table.locator("tr", { hasText: "Semente" });
      await seededRow.getByText("Inativa").waitFor({ timeout: 20_000 });
      await seededRow.getByText("Lista 1").waitFor();
      await seededRow.getByText("WhatsApp Demo").waitFor();
      await seededRow.getByText("Desabilitada").waitFor();

      // §5 messages from the domain schema, in the browser, before any call.
      const posts: string[] = [];
      page.on("request", (r) => r.method() === "POST" && new URL(r.url()).pathname === "/campaigns" && posts.push(r.url()));
      await page.getByRole("button", { name: "Nova campanha" }).click();
      const dialog = page.getByRole("dialog");
      await dialog.getByLabel("Nome").fill("X");
      await dialog.getByTestId("campaign-save").click();
      await dialog.getByText("Muito curto!").waitFor({ timeout: 10_000 });
      await dialog.getByText("A lista de contatos é obrigatória.").waitFor();
      await dialog.getByText("É obrigatório selecionar pelo menos uma conexão.").waitFor();
      await dialog.getByText("Informe ao menos uma mensagem.").waitFor();
      assert.deepEqual(posts, [], "an invalid form never reaches the server");

      await dialog.getByLabel("Nome").fill("Black Friday");
      await dialog.getByLabel("Confirmação").selectOption({ label: "Habilitada" });
      await dialog.getByLabel("Lista de contatos").selectOption({ label: "Lista 1" });
      await dialog.getByLabel("WhatsApp Demo").check();
      await dialog.getByLabel("Mensagem 1", { exact: true }).fill("Oi {primeiroNome}, promoção!");
      await dialog.getByRole("tab", { name: "Msg. 2" }).click();
      await dialog.getByLabel("Mensagem 2", { exact: true }).fill("Olá {nome}, ofertas!");
      await dialog.getByTestId("campaign-save").click();
      // Confirmation on: each filled slot needs its confirmation message; the tab with it opens.
      await dialog.getByText("Informe a mensagem de confirmação.").waitFor({ timeout: 10_000 });
      await dialog.getByLabel("Mensagem de confirmação 2").fill("Quer receber? Responda 1");
      await dialog.getByRole("tab", { name: "Msg. 1" }).click();
      await dialog.getByLabel("Mensagem de confirmação 1").fill("Podemos enviar? Responda sim");
      await screenshot(page, "campaign_dialog");
      await dialog.getByTestId("campaign-save").click();
      await dialog.waitFor({ state: "detached", timeout: 10_000 });
      await page.getByText("Campanha salva com sucesso!").waitFor();
      const createdRow = table.locator("tr", { hasText: "Black Friday" });
      await createdRow.getByText("Programada").waitFor({ timeout: 10_000 });
      await createdRow.getByText("Habilitada").waitFor();
      const created = (await admin.get("/campaigns/?searchParam=Black")).body.records[0];
      assert.equal(created.confirmation, true);
      assert.deepEqual(created.whatsappIds, [conn.id]);
      assert.equal(created.message2, "Olá {nome}, ofertas!");
      assert.equal(created.confirmationMessage1, "Podemos enviar? Responda sim");
      assert.ok(Date.parse(created.scheduledAt) - Date.now() > 3600_000, "the default schedule leaves it editable");

      // Edit: rename and attach a file (uploaded after the save); then remove it.
      await createdRow.getByRole("button", { name: "Editar" }).click();
      await dialog.getByLabel("Nome").fill("Black Friday 2");
      await dialog.getByLabel("Anexar arquivo").setInputFiles({ name: "promo.png", mimeType: "image/png", buffer: Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]) });
      await dialog.getByTestId("campaign-save").click();
      await dialog.waitFor({ state: "detached", timeout: 10_000 });
      await table.getByText("Black Friday 2").waitFor({ timeout: 10_000 });
      assert.equal((await admin.get(`/campaigns/${created.id}`)).body.mediaName, "promo.png");
      await table.locator("tr", { hasText: "Black Friday 2" }).getByRole("button", { name: "Editar" }).click();
      await dialog.getByTestId("campaign-media-name").getByText("promo.png").waitFor();
      await dialog.getByRole("button", { name: "Remover anexo" }).click();
      await page.getByText("Anexo removido").waitFor({ timeout: 10_000 });
      assert.equal((await admin.get(`/campaigns/${created.id}`)).body.mediaName, null);
      await dialog.getByRole("button", { name: "Cancelar" }).click();

      // Another user's campaign arrives live; one scheduled within the hour opens read-only.
      const soon = await admin.post("/campaigns", { name: "Daqui a pouco", contactListId: list1.id, whatsappId: String(conn.id), scheduledAt: inHours(0.5), message1: "Oi" });
      assert.equal(soon.status, 200, JSON.stringify(soon.body));
      const soonRow = table.locator("tr", { hasText: "Daqui a pouco" });
      await soonRow.waitFor({ timeout: 10_000 });
      await soonRow.getByRole("button", { name: "Editar" }).click();
      await dialog.getByTestId("campaign-readonly").waitFor();
      assert.equal(await dialog.getByLabel("Nome").isDisabled(), true);
      assert.equal(await dialog.getByTestId("campaign-save").count(), 0);
      await dialog.getByRole("button", { name: "Fechar" }).last().click();

      // A campaign that ran to its end: report link, then delete with the §8 confirmation.
      const list2 = await makeList(admin, "Lista 2", 5);
      const running = await admin.post("/campaigns", { name: "Em curso", contactListId: list2.id, whatsappId: String(conn.id), scheduledAt: new Date().toISOString(), message1: "Oi" });
      assert.equal(running.status, 200, JSON.stringify(running.body));
      const runningRow = table.locator("tr", { hasText: "Em curso" });
      await runningRow.getByText("Finalizada").waitFor({ timeout: 30_000 });
      assert.equal(await runningRow.getByRole("link", { name: "Relatório" }).getAttribute("href"), `/campaign/${running.body.id}/report`);
      await runningRow.getByRole("button", { name: "Excluir" }).click();
      await page.getByText("Deseja realmente excluir esse registro?").waitFor();
      await page.getByTestId("confirm").click();
      await runningRow.waitFor({ state: "detached", timeout: 10_000 });
      assert.equal((await admin.get(`/campaigns/${running.body.id}`)).status, 404);

      // Search narrows on the server.
      await page.getByRole("searchbox").fill("Semente");
      await table.getByText("Black Friday 2").waitFor({ state: "detached", timeout: 10_000 });
      await page.getByRole("searchbox").fill("");
      await table.getByText("Black Friday 2").waitFor({ timeout: 10_000 });
      await screenshot(page, "campaigns");

      // 390 px, dark.
      await page.context().addCookies([{ name: "theme", value: "dark", url: server.url }]);
      await page.setViewportSize({ width: 390, height: 800 });
      await page.reload();
      await table.getByText("Black Friday 2").waitFor({ timeout: 20_000 });
      await assertFitsWidth(page);
      await screenshot(page, "campaigns_phone_dark");
      await page.getByRole("button", { name: "Nova campanha" }).click();
      await dialog.getByLabel("Nome").waitFor();
      await assertFitsWidth(page, "the campaign dialog");
      await screenshot(page, "campaign_dialog_phone_dark");

      // A plain user is gated (000 §2: admin and supervisor).
      const agent = await signedInPage(chrome, server, "agent@demo.local");
      await agent.goto(`${server.url}/campaigns`);
      await agent.getByTestId("gate-notice").waitFor({ timeout: 20_000 });
      assert.equal(await agent.getByTestId("campaigns-table").count(), 0);
      // The §9 default pacing (240 s, 4 a batch, 600 s) shortened so 'Em curso' runs to its end.
    }, { campaignTimeScale: 0.001 });
  },
});

// Real pacing (time scale 1): the saved 600 s pause keeps the campaign running after its first
// message, long enough to stop it from the page.
Deno.test({
  name: "CampaignsPage: a running campaign shows stop, and stopping makes it Cancelada",
  ...opts,
  async fn() {
    await withServerAndBrowser(async (server, chrome) => {
      const admin = await server.login("admin@demo.local");
      const { conn } = await demo(admin);
      const page = await signedInPage(chrome, server, "supervisor@demo.local");
      const socket = watchSocket(page);
      await page.goto(`${server.url}/campaigns`);
      const table = page.getByTestId("campaigns-table");
      await table.waitFor({ timeout: 20_000 });
      // The new campaign's row arrives live: the page's socket is up first (an event before it is lost).
      await socket.ready();
      // A running campaign (a 600 s pause after each message) shows stop, then is cancelled.
      const paced = await admin.post("/campaign-settings", { settings: { messageInterval: 240, longerIntervalAfter: 1, greaterInterval: 600, variables: [] } });
      assert.equal(paced.status, 200, JSON.stringify(paced.body));
      const list2 = await makeList(admin, "Lista 2", 5);
      const running = await admin.post("/campaigns", { name: "Em curso", contactListId: list2.id, whatsappId: String(conn.id), scheduledAt: new Date().toISOString(), message1: "Oi" });
      assert.equal(running.status, 200, JSON.stringify(running.body));
      const runningRow = table.locator("tr", { hasText: "Em curso" });
      await runningRow.getByText("Em andamento").waitFor({ timeout: 20_000 });
      assert.equal(await runningRow.getByRole("button", { name: "Excluir" }).count(), 0, "a running campaign is not deleted");
      // Stop once the first message went out (a loaded machine may take a while to send it):
      // then the pause after it is what holds the other four.
      const sentToList = async () =>
        ((await admin.get(`/simulator/${conn.id}/outbox`)).body.messages as Array<{ to: string }>).filter((m) => list2.numbers.includes(m.to));
      for (const deadline = Date.now() + 20_000; (await sentToList()).length === 0;) {
        assert.ok(Date.now() < deadline, "the campaign's first message reached the simulator");
        await new Promise((r) => setTimeout(r, 100));
      }
      await runningRow.getByRole("button", { name: "Parar campanha" }).click();
      await page.getByText("Campanha interrompida").waitFor({ timeout: 10_000 });
      await runningRow.getByText("Cancelada").waitFor({ timeout: 10_000 });
      assert.equal((await admin.get(`/campaigns/${running.body.id}`)).body.status, "CANCELADA");
      // The pause held: one of the five contacts got its message, the rest wait for the resume.
      const sent = await sentToList();
      assert.equal(sent.length, 1, JSON.stringify(sent));
    });
  },
});

Deno.test({
  name: "CampaignReportPage: server-rendered report, progress filling live to FINALIZADA, cards and detail rows",
  ...opts,
  async fn() {
    await withServerAndBrowser(async (server, chrome) => {
      const admin = await server.login("admin@demo.local");
      const { conn } = await demo(admin);
      const { id: listId, numbers } = await makeList(admin, "Lista 3", 10);
      await admin.post("/campaign-settings", { settings: { messageInterval: 5, longerIntervalAfter: 10, greaterInterval: 50, variables: [] } });
      const created = await admin.post("/campaigns", {
        name: "Relatório ao vivo",
        contactListId: listId,
        whatsappId: String(conn.id),
        scheduledAt: new Date(Date.now() + 4000).toISOString(),
        message1: "Oi {primeiroNome}",
      });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      const id = created.body.id;

      const page = await signedInPage(chrome, server, "admin@demo.local");
      await page.goto(`${server.url}/campaign/${id}/report`);
      const progress = page.getByTestId("campaign-progress-text");
      await progress.getByText(/de 10 mensagens entregues/).waitFor({ timeout: 20_000 });
      await page.getByTestId("campaign-card-valid").getByText("10").waitFor();
      await page.getByTestId("campaign-card-connection").getByText("WhatsApp Demo").waitFor();
      await page.getByTestId("campaign-card-list").getByText("Lista 3").waitFor();

      // Live: the engine's events move the bar without a reload, up to the end.
      await progress.getByText("10 de 10 mensagens entregues").waitFor({ timeout: 60_000 }).catch(async (e) => {
        console.log("report page vs API:", await progress.innerText(), JSON.stringify((await admin.get(`/campaigns/${id}/report`)).body.counts), (await admin.get(`/campaigns/${id}`)).body.status);
        throw e;
      });
      await progress.getByText("Finalizada").waitFor({ timeout: 20_000 });
      assert.equal(await page.getByTestId("campaign-progress").getAttribute("value"), "10");
      const table = page.getByTestId("campaign-shipping");
      await table.getByText(numbers[0]).waitFor({ timeout: 10_000 });
      await table.getByText("Oi Cliente").first().waitFor();
      assert.notEqual(await page.getByTestId("campaign-card-completion").innerText(), "Conclusão\n—");
      const report = (await admin.get(`/campaigns/${id}/report`)).body;
      assert.equal(report.counts.delivered, 10);
      await screenshot(page, "campaign_report");

      await page.context().addCookies([{ name: "theme", value: "dark", url: server.url }]);
      await page.setViewportSize({ width: 390, height: 800 });
      await page.reload();
      await progress.getByText("10 de 10 mensagens entregues").waitFor({ timeout: 20_000 });
      await assertFitsWidth(page);
      await screenshot(page, "campaign_report_phone_dark");
    }, { campaignTimeScale: 0.05 });
  },
});

Deno.test({
  name: "CampaignsConfigPage: §9 defaults, dropdowns saved, variables added without duplicate shortcut and removed",
  ...opts,
  async fn() {
    await withServerAndBrowser(async (server, chrome) => {
      const admin = await server.login("admin@demo.local");
      const page = await signedInPage(chrome, server, "supervisor@demo.local");
      await page.goto(`${server.url}/campaigns-config`);
      const interval = page.getByLabel("Intervalo randômico de disparo");
      await interval.waitFor({ timeout: 20_000 });
      assert.equal(await interval.locator("option:checked").innerText(), "240 segundos");
      assert.equal(await page.getByLabel("Mensagens por lote").locator("option:checked").innerText(), "4 mensagens");
      assert.equal(await page.getByLabel("Pausa entre lotes").locator("option:checked").innerText(), "600 segundos");
      assert.deepEqual(await interval.locator("option").allInnerTexts(), [5, 10, 20, 30, 40, 50, 60, 120, 240].map((n) => `${n} segundos`));

      await interval.selectOption({ label: "20 segundos" });
      await page.getByLabel("Mensagens por lote").selectOption({ label: "7 mensagens" });
      await page.getByLabel("Pausa entre lotes").selectOption({ label: "100 segundos" });
      await page.getByLabel("Atalho").fill("loja");
      await page.getByLabel("Conteúdo").fill("Centro");
      await page.getByRole("button", { name: "Adicionar variável" }).click();
      await page.getByTestId("campaign-variables").getByText("{loja}").waitFor();
      await page.getByLabel("Atalho").fill("LOJA");
      await page.getByLabel("Conteúdo").fill("Outra");
      await page.getByRole("button", { name: "Adicionar variável" }).click();
      await page.getByTestId("variable-error").getByText("Atalho já utilizado.").waitFor();
      assert.equal(await page.getByTestId("campaign-variables").locator("tbody tr").count(), 1);
      await page.getByLabel("Atalho").fill("site");
      await page.getByLabel("Conteúdo").fill("balcao.local");
      await page.getByLabel("Conteúdo").press("Enter");
      await page.getByTestId("campaign-variables").getByText("{site}").waitFor();
      await page.getByTestId("campaigns-config-save").click();
      await page.getByText("Configurações salvas").waitFor({ timeout: 10_000 });
      const rows = (await admin.get("/campaign-settings")).body as Array<{ key: string; value: string }>;
      const read = Object.fromEntries(rows.map((r) => [r.key, JSON.parse(r.value)]));
      assert.deepEqual(read, {
        messageInterval: 20,
        longerIntervalAfter: 7,
        greaterInterval: 100,
        variables: [{ key: "loja", value: "Centro" }, { key: "site", value: "balcao.local" }],
      });
      await screenshot(page, "campaigns_config");

      // Kept after a reload (rendered on the server); a variable removed and saved.
      await page.context().addCookies([{ name: "theme", value: "dark", url: server.url }]);
      await page.setViewportSize({ width: 390, height: 800 });
      await page.reload();
      await page.getByTestId("campaign-variables").getByText("{site}").waitFor({ timeout: 20_000 });
      assert.equal(await page.getByLabel("Intervalo randômico de disparo").locator("option:checked").innerText(), "20 segundos");
      await page.getByRole("button", { name: "Remover variável loja" }).click();
      await page.getByTestId("campaigns-config-save").click();
      await page.getByText("Configurações salvas").waitFor({ timeout: 10_000 });
      const after = (await admin.get("/campaign-settings")).body as Array<{ key: string; value: string }>;
      assert.deepEqual(JSON.parse(after.find((r) => r.key === "variables")!.value), [{ key: "site", value: "balcao.local" }]);
      await assertFitsWidth(page);
      await screenshot(page, "campaigns_config_phone_dark");
    });
  },
});

Deno.test({
  name: "Campaign routes need the browser's cshow flag (spec 002 §2.1): written from the company's campaignsEnabled at every session load; without it menu entries are hidden and the pages gated",
  ...opts,
  async fn() {
    await withServerAndBrowser(async (server, chrome) => {
      const owner = await server.login("super@balcao.local");
      const companyId = server.demo!.companyId;
      const setCampaigns = async (on: boolean) => {
        const company = (await owner.get(`/companies/${companyId}`)).body;
        const r = await owner.put(`/companies/${companyId}`, { name: company.name, email: company.email, campaignsEnabled: on });
        assert.equal(r.status, 200, JSON.stringify(r.body));
      };
      const page = await signedInPage(chrome, server, "admin@demo.local");
      const menu = page.getByRole("navigation");
      // On (the demo's default): the flag is in local storage and the entries are shown.
      await menu.getByRole("link", { name: "Campanhas", exact: true }).waitFor({ timeout: 20_000 });
      assert.equal(await page.evaluate(() => localStorage.getItem("cshow")), "true");

      // The owner turns campaigns off: the next page load removes the flag, hides the entries, gates the pages.
      await setCampaigns(false);
      await page.goto(`${server.url}/campaigns-config`);
      await page.getByTestId("toast").getByText(/Você não possui acesso a este recurso/).waitFor({ timeout: 20_000 });
      await page.waitForURL((url) => url.pathname === "/", { timeout: 10_000 });
      await page.getByText("Olá").first().waitFor({ timeout: 20_000 });
      assert.equal(await page.evaluate(() => localStorage.getItem("cshow")), null);
      for (const name of ["Campanhas", "Listas de contatos", "Configurações de campanha"]) {
        assert.equal(await menu.getByRole("link", { name, exact: true }).count(), 0, name);
      }
      const supervisor = await server.login("supervisor@demo.local");
      assert.equal((await supervisor.get("/campaigns/")).status, 403, "the API refuses too");
      assert.equal((await supervisor.get("/contact-lists/")).status, 403);

      // On again: the flag comes back with the next load, without a new login.
      await setCampaigns(true);
      await page.reload();
      await menu.getByRole("link", { name: "Campanhas", exact: true }).waitFor({ timeout: 20_000 });
      assert.equal(await page.evaluate(() => localStorage.getItem("cshow")), "true");
      await page.goto(`${server.url}/campaigns`);
      await page.getByTestId("campaigns-table").waitFor({ timeout: 20_000 });
    });
  },
});

Deno.test({
  name: "Campaign dialog's 'Lista de grupos': the company's WhatsApp groups; a group alone stands in for the contact list, and the campaign reaches its members",
  ...opts,
  async fn() {
    await withServerAndBrowser(async (server, chrome) => {
      const admin = await server.login("admin@demo.local");
      const { conn } = await demo(admin);
      const ids: number[] = [];
      for (const [name, number] of [["Dora Grupo", "5511966660001"], ["Enzo Grupo", "5511966660002"]]) {
        const r = await admin.post("/contacts", { name, number });
        assert.equal(r.status, 200, JSON.stringify(r.body));
        ids.push(r.body.id);
      }
      const made = await admin.post("/creatGroupAndTicket", {
        contactsAddGroup: ids,
        titleGroup: "Turma do Sábado",
        queueId: server.demo!.queueIds[0],
        whatsappId: conn.id,
        status: "open",
      });
      assert.equal(made.status, 200, JSON.stringify(made.body));

      const page = await signedInPage(chrome, server, "supervisor@demo.local");
      await page.goto(`${server.url}/campaigns`);
      const table = page.getByTestId("campaigns-table");
      await table.waitFor({ timeout: 20_000 });
      await page.getByRole("button", { name: "Nova campanha" }).click();
      const dialog = page.getByRole("dialog");
      const groupList = dialog.getByLabel("Lista de grupos");
      await groupList.locator("option", { hasText: "Turma do Sábado" }).waitFor({ state: "attached", timeout: 10_000 });
      // Only groups are offered, no person.
      assert.equal(await groupList.locator("option", { hasText: "Dora Grupo" }).count(), 0);
      await dialog.getByText("Envia aos membros deste grupo do WhatsApp", { exact: false }).waitFor();

      await dialog.getByLabel("Nome").fill("Aviso da turma");
      await dialog.getByLabel("WhatsApp Demo").check();
      await dialog.getByLabel("Mensagem 1", { exact: true }).fill("Olá {primeiroNome}, sábado tem aula!");
      // This minute (already begun): the campaign starts at once.
      const thisMinute = await page.evaluate(() => new Date(Date.now() - new Date().getTimezoneOffset() * 60_000).toISOString().slice(0, 16));
      await dialog.getByLabel("Agendamento", { exact: false }).fill(thisMinute);
      // Neither list: the §5 text, before any call.
      await dialog.getByTestId("campaign-save").click();
      await dialog.getByText("A lista de contatos é obrigatória.").waitFor({ timeout: 10_000 });
      await groupList.selectOption({ label: "Turma do Sábado" });
      await screenshot(page, "campaign_dialog_group_list");
      await dialog.getByTestId("campaign-save").click();
      await dialog.waitFor({ state: "detached", timeout: 10_000 });
      const row = table.locator("tr", { hasText: "Aviso da turma" });
      await row.getByText("Turma do Sábado").waitFor({ timeout: 10_000 });
      const saved = (await admin.get("/campaigns/?searchParam=Aviso")).body.records[0];
      assert.deepEqual([saved.contactListId, saved.groupListId], [null, made.body.contact.id]);

      // It starts at once and reaches both members.
      await row.getByText("Finalizada").waitFor({ timeout: 30_000 });
      const box = (await admin.get(`/simulator/${conn.id}/outbox`)).body.messages as Array<{ to: string; body: string }>;
      const sent = box.filter((m) => m.body.includes("sábado tem aula"));
      assert.deepEqual(sent.map((m) => m.body).sort(), ["Olá Dora, sábado tem aula!", "Olá Enzo, sábado tem aula!"]);
    }, { campaignTimeScale: 0.001 });
  },
});
