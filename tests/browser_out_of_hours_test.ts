/**
 * Issue #41, bug 5: with "Mensagem fora do expediente" off, a customer writing out of hours
 * got the out-of-hours text anyway. The switch now governs it; the hours tab shows the
 * company's time now and whether it is open.
 */
import assert from "node:assert/strict";
import { signedInPage, withServerAndBrowser } from "./helpers/browser_session.ts";
import { hasChromium, screenshot } from "./helpers/browser.ts";
import { demoConnection, eventually } from "./helpers/channels.ts";
import { localClock } from "../domain/schedule_hours.ts";

const opts = { ignore: !hasChromium(), sanitizeOps: false, sanitizeResources: false };
const CLOSED = "Estamos fora do horário de atendimento. Responderemos assim que possível.";
const DAYS = [["Segunda-feira", "monday"], ["Terça-feira", "tuesday"], ["Quarta-feira", "wednesday"], ["Quinta-feira", "thursday"], ["Sexta-feira", "friday"], ["Sábado", "saturday"], ["Domingo", "sunday"]];

Deno.test({
  name: "'Mensagem fora do expediente' off: no out-of-hours text is sent; on: it is; the hours tab shows the company's clock and 'Fechado agora'",
  ...opts,
  async fn() {
    await withServerAndBrowser(async (server, chrome) => {
      const admin = await server.login("admin@demo.local");
      const conn = await demoConnection(admin);
      assert.equal((await admin.put("/settings/scheduleType", { value: "company" })).status, 200);
      // Closed every day (start equals end), as the admin closed the company's hours.
      const schedules = DAYS.map(([weekday, weekdayEn]) => ({ weekday, weekdayEn, startTime: "00:00", endTime: "00:00" }));
      const companyId = server.demo!.companyId;
      const put = await admin.put(`/companies/${companyId}/schedules`, { id: companyId, schedules, lunchHour: { startTime: "12:00", endTime: "13:00" } });
      assert.equal(put.status, 200, JSON.stringify(put.body));

      const page = await signedInPage(chrome, server, "admin@demo.local", { viewport: { width: 1366, height: 800 }, timezoneId: "UTC" });
      await page.goto(`${server.url}/settings?tab=options`);
      const toggle = page.getByRole("switch", { name: "Mensagem fora do expediente" });
      await toggle.waitFor({ timeout: 20_000 });
      assert.equal(await toggle.isChecked(), true, "on by default, as the text was sent before");
      await toggle.click();
      await eventually(async () => (await admin.get("/settings/outsidemessage")).body.value === "disabled" || undefined, 10_000, "the switch saved");

      const outbox = async (to: string) =>
        ((await admin.get(`/simulator/${conn.id}/outbox`)).body.messages as { to: string; body: string }[]).filter((m) => m.to === to);
      await admin.post(`/simulator/${conn.id}/inbound`, { from: "5511966667001", name: "Notívago", body: "Olá?" });
      await eventually(async () => (await admin.get("/tickets?status=pending&showAll=true")).body.tickets
        ?.find((tk: { contact: { number: string } }) => tk.contact.number === "5511966667001"), 10_000, "the ticket");
      // The engine ran for that message (the ticket is there); give its sends a moment to show.
      await eventually(async () => (await admin.get(`/messages/${(await admin.get("/tickets?status=pending&showAll=true")).body.tickets.find((tk: { contact: { number: string } }) => tk.contact.number === "5511966667001").id}`)).body.messages?.length >= 1 || undefined);
      assert.deepEqual((await outbox("5511966667001")).filter((m) => m.body === CLOSED), [], "switch off: no out-of-hours text");

      await toggle.click();
      await eventually(async () => (await admin.get("/settings/outsidemessage")).body.value === "enabled" || undefined, 10_000, "the switch saved");
      await admin.post(`/simulator/${conn.id}/inbound`, { from: "5511966667002", name: "Coruja", body: "Olá?" });
      await eventually(async () => (await outbox("5511966667002")).find((m) => m.body === CLOSED), 10_000, "the out-of-hours text with the switch on");
      // The first customer, who wrote before, still got none (its turn ran before this one's).
      assert.deepEqual((await outbox("5511966667001")).filter((m) => m.body === CLOSED), []);

      // The hours tab: the company's clock (not the browser's UTC) and closed now.
      await page.goto(`${server.url}/settings?tab=hours`);
      const now = page.getByTestId("open-now");
      await now.waitFor({ timeout: 20_000 });
      const clock = localClock(Date.now(), "America/Sao_Paulo");
      const hh = String(Math.floor(clock.minutes / 60)).padStart(2, "0");
      const text = await now.innerText();
      assert.match(text, new RegExp(`Agora na empresa: .* ${hh}:\\d\\d \\(America/Sao_Paulo\\)`));
      assert.match(text, /Fechado agora/);
      await screenshot(page, "settings_hours_open_now");
    });
  },
});
