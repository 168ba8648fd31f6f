/**
 * Browser test of /schedules (spec 001 §2.19; issue #17): first data in the server's HTML, the
 * pt-BR calendar with the contact's name as the event title, the popover's edit and delete,
 * the dialog's validation texts and a new schedule, `?contactId=` opening the dialog, the
 * ticket options' "Agendamento" entry, desktop and 390 px (light and dark) screenshots.
 */
import assert from "node:assert/strict";
import { assertFitsWidth, hasChromium, screenshot } from "./helpers/browser.ts";
import { signedInPage, withServerAndBrowser } from "./helpers/browser_session.ts";
import { demoTicket, makeContact } from "./helpers/fixtures.ts";
import { freshNumber } from "./helpers/messages.ts";

const opts = { ignore: !hasChromium(), sanitizeOps: false, sanitizeResources: false };

Deno.test({
  name: "SchedulesPage shows the calendar in pt-BR, edits and deletes from the popover, validates and creates",
  ...opts,
  async fn() {
    await withServerAndBrowser(async (server, chrome) => {
      const companyId = server.demo!.companyId;
      const admin = await server.login("supervisor@demo.local");
      const beatriz = await makeContact(server, companyId, { name: "Beatriz Agenda" });
      const carlos = await makeContact(server, companyId, { name: "Carlos Calendário" });
      const soon = new Date(Date.now() + 2 * 3600_000).toISOString();
      const seeded = await admin.post("/schedules", { body: "Consulta confirmada para hoje", contactId: beatriz.id, sendAt: soon });
      assert.equal(seeded.status, 200, JSON.stringify(seeded.body));

      const page = await signedInPage(chrome, server, "admin@demo.local", { viewport: { width: 1280, height: 900 } });
      const html = await page.evaluate(async () => (await fetch("/schedules", { headers: { accept: "text/html" } })).text());
      assert.match(html, /Beatriz Agenda/, "the first data is in the server's HTML");
      await page.goto(`${server.url}/schedules`);
      const calendar = page.getByTestId("schedules-calendar");
      await calendar.getByText("Beatriz Agenda").first().waitFor({ timeout: 30_000 });
      await calendar.getByText("Mês", { exact: true }).waitFor();
      await calendar.getByText("Semana", { exact: true }).waitFor();
      await calendar.getByText("Hoje", { exact: true }).waitFor();
      await screenshot(page, "schedules");

      // The popover: edit (PENDENTE) changes the message.
      await calendar.getByText("Beatriz Agenda").first().click();
      const popover = page.getByTestId("schedule-popover");
      await popover.getByText("Consulta confirmada para hoje").waitFor();
      await popover.getByText("Pendente").waitFor();
      await popover.getByTestId("schedule-edit").click();
      const dialog = page.getByRole("dialog");
      await dialog.getByLabel("Mensagem").fill("Consulta remarcada");
      await dialog.getByTestId("schedule-save").click();
      await dialog.waitFor({ state: "detached", timeout: 10_000 });
      assert.equal((await admin.get(`/schedules/${seeded.body.id}`)).body.body, "Consulta remarcada");

      // A new one: the client's validation texts first, then a contact found by name.
      await page.getByTestId("schedule-add").click();
      await dialog.getByTestId("schedule-save").click();
      await dialog.getByText("Obrigatório").first().waitFor({ timeout: 10_000 });
      await dialog.getByLabel("Mensagem").fill("oi");
      await dialog.getByTestId("schedule-save").click();
      await dialog.getByText("Mensagem muito curta").waitFor({ timeout: 10_000 });
      await dialog.getByRole("searchbox").fill("Carlos Cal");
      await dialog.getByRole("button", { name: /Carlos Calendário/ }).click();
      await dialog.getByTestId("schedule-contact").waitFor();
      await dialog.getByLabel("Mensagem").fill("Seu pedido está pronto");
      await dialog.getByLabel("Repetir").selectOption({ label: "Mais 2 vezes" });
      await dialog.getByText("Seg", { exact: true }).click();
      await dialog.getByText("Qui", { exact: true }).click();
      await dialog.getByTestId("schedule-save").click();
      await dialog.waitFor({ state: "detached", timeout: 10_000 });
      await calendar.getByText("Carlos Calendário").first().waitFor({ timeout: 10_000 });
      const made = (await admin.get(`/schedules?contactId=${carlos.id}`)).body.schedules[0];
      assert.deepEqual([made.repeatEvery, made.selectDaysRecorrenci, made.status], [2, "Monday, Thursday", "PENDENTE"]);

      // Delete from the popover, with the §8 confirmation.
      await calendar.getByText("Carlos Calendário").first().click();
      await page.getByTestId("schedule-delete").click();
      await page.getByText("Deseja realmente excluir esse registro?").waitFor();
      await page.getByTestId("confirm").click();
      await calendar.getByText("Carlos Calendário").waitFor({ state: "detached", timeout: 10_000 });
      assert.equal((await admin.get(`/schedules?contactId=${carlos.id}`)).body.count, 0);

      // ?contactId= opens the add dialog for that contact.
      await page.goto(`${server.url}/schedules?contactId=${beatriz.id}`);
      await page.getByRole("dialog").getByTestId("schedule-contact").getByText("Beatriz Agenda").waitFor({ timeout: 20_000 });
      await screenshot(page, "schedules_dialog");

      // Phone width, light then dark: the calendar fits.
      await page.setViewportSize({ width: 390, height: 800 });
      await page.goto(`${server.url}/schedules`);
      await calendar.getByText("Beatriz Agenda").first().waitFor({ timeout: 20_000 });
      await assertFitsWidth(page);
      await screenshot(page, "schedules_phone");
      await page.context().addCookies([{ name: "theme", value: "dark", url: server.url }]);
      await page.reload();
      await calendar.getByText("Beatriz Agenda").first().waitFor({ timeout: 20_000 });
      await assertFitsWidth(page);
      await screenshot(page, "schedules_phone_dark");
    });
  },
});

Deno.test({
  name: "The ticket options menu opens the schedule dialog for the ticket's contact",
  ...opts,
  async fn() {
    await withServerAndBrowser(async (server, chrome) => {
      const number = freshNumber();
      const ticket = await demoTicket(server, number, { name: "Diana Opções" });
      const page = await signedInPage(chrome, server, "admin@demo.local", { viewport: { width: 1280, height: 900 } });
      await page.goto(`${server.url}/tickets/${ticket.uuid}`);
      await page.getByTestId("ticket-options").click();
      await page.getByTestId("menu-schedule").click();
      const dialog = page.getByRole("dialog");
      await dialog.getByTestId("schedule-contact").getByText("Diana Opções").waitFor({ timeout: 20_000 });
      await dialog.getByLabel("Mensagem").fill("Retorno agendado pelo ticket");
      await dialog.getByTestId("schedule-save").click();
      await dialog.waitFor({ state: "detached", timeout: 10_000 });
      const admin = await server.login("supervisor@demo.local");
      const made = (await admin.get(`/schedules?contactId=${ticket.contactId}`)).body.schedules[0];
      assert.deepEqual([made.body, made.whatsappId], ["Retorno agendado pelo ticket", ticket.whatsappId]);
    });
  },
});
