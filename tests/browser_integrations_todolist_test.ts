/**
 * Browser tests of /integrations (spec 002 §2.12: six partner cards with their marks, each linking to the
 * screen where it is configured; no JavaScript of its own) and /todolist (§2.18: tasks in
 * local storage with text, createdAt and updatedAt; add, edit, delete; blank ignored; no
 * request to the server). Both at 390 px in the dark theme. Screenshots: integrations,
 * integrations_phone_dark, todolist, todolist_phone_dark.
 */
import assert from "node:assert/strict";
import { assertFitsWidth, hasChromium, screenshot } from "./helpers/browser.ts";
import { signedInPage, withServerAndBrowser } from "./helpers/browser_session.ts";

const opts = { ignore: !hasChromium(), sanitizeOps: false, sanitizeResources: false };

Deno.test({
  name: "/integrations shows six cards linking to where each is configured; an agent gets the admin-page gate",
  ...opts,
  async fn() {
    await withServerAndBrowser(async (server, chrome) => {
      const page = await signedInPage(chrome, server, "admin@demo.local");
      await page.goto(`${server.url}/integrations`);
      const grid = page.getByTestId("integrations-page");
      await grid.waitFor({ timeout: 20_000 });
      const links = await page.locator(".integration-card a").evaluateAll((as) => as.map((a) => a.getAttribute("href")));
      assert.deepEqual(links, ["/queues", "/queues", "/connections", "/connections", "/webhooks", "/messages-api"]);
      for (const name of ["Typebot", "n8n", "WhatsApp Cloud API", "Evolution API", "Webhooks", "API"]) {
        await grid.getByRole("heading", { name, exact: true }).waitFor();
      }
      // Each card carries its partner's mark (inline SVG, drawn in the partner's colours, nothing downloaded).
      const marks = ["typebot", "n8n", "cloudapi", "evolution", "webhooks", "api"];
      const bases = new Set<string>();
      for (const id of marks) {
        const logo = page.getByTestId(`integration-${id}`).getByTestId(`logo-${id}`);
        const box = await logo.boundingBox();
        assert.ok(box && box.width >= 32 && box.height >= 32, `${id}: a visible mark`);
        const fill = await logo.locator(".logo-base").evaluate((el) => getComputedStyle(el).fill);
        assert.match(fill, /^rgb/, `${id}: its base is painted (${fill})`);
        bases.add(fill);
      }
      assert.ok(bases.size >= 5, `the marks differ from one another: ${[...bases].join(", ")}`);
      assert.equal(await page.locator(".integration-card svg.lucide").count(), 0, "no generic icons left");
      const scripts = await page.locator("script[src*='IntegrationsPage']").count();
      assert.equal(scripts, 0, "the page has no island of its own");
      await screenshot(page, "integrations");
      await page.getByTestId("integration-evolution").getByRole("link").click();
      await page.waitForURL(/\/connections$/, { timeout: 20_000 });

      await page.context().addCookies([{ name: "theme", value: "dark", url: server.url }]);
      await page.setViewportSize({ width: 390, height: 800 });
      await page.goto(`${server.url}/integrations`);
      await grid.waitFor({ timeout: 20_000 });
      await assertFitsWidth(page);
      await screenshot(page, "integrations_phone_dark");

      const agent = await signedInPage(chrome, server, "agent@demo.local");
      await agent.goto(`${server.url}/integrations`);
      await agent.getByTestId("gate-notice").waitFor({ timeout: 20_000 });
      assert.equal(await agent.getByTestId("integrations-page").count(), 0);
    });
  },
});

Deno.test({
  name: "/todolist adds, edits and deletes tasks kept in local storage, ignores blank text, and calls no API",
  ...opts,
  async fn() {
    await withServerAndBrowser(async (server, chrome) => {
      const page = await signedInPage(chrome, server, "agent@demo.local");
      const agentId = server.demo!.logins.find((l) => l.email === "agent@demo.local")!.id;
      await page.goto(`${server.url}/todolist`);
      await page.getByText("Nenhuma tarefa.", { exact: false }).waitFor({ timeout: 20_000 });
      // From here on, nothing about tasks may reach the server.
      const calls: string[] = [];
      page.on("request", (r) => {
        const u = new URL(r.url());
        if (u.origin === server.url && !u.pathname.startsWith("/static/") && r.method() !== "GET") calls.push(`${r.method()} ${u.pathname}`);
      });
      const input = page.getByTestId("todo-input");
      const items = page.getByTestId("todo-item");

      await input.fill("   ");
      await page.getByTestId("todo-add").click();
      assert.equal(await items.count(), 0, "blank text is ignored");
      await input.fill("Ligar para o cliente");
      await input.press("Enter");
      await input.fill("Enviar proposta");
      await page.getByTestId("todo-add").click();
      await items.nth(1).waitFor();
      assert.deepEqual(await page.getByTestId("todo-text").allTextContents(), ["Enviar proposta", "Ligar para o cliente"]);
      assert.equal(await input.inputValue(), "");

      // Edit: the text changes and updatedAt moves; createdAt stays. Blank edit is ignored.
      const stored = async () => JSON.parse(await page.evaluate((key) => localStorage.getItem(key) ?? "[]", `tasks:${agentId}`));
      const before = await stored();
      await page.waitForTimeout(20);
      await items.nth(1).getByRole("button", { name: "Editar tarefa" }).click();
      await page.getByTestId("todo-edit-input").fill("Ligar para o cliente às 15h");
      await page.getByTestId("todo-save").click();
      await page.getByText("Ligar para o cliente às 15h").waitFor();
      const after = await stored();
      assert.equal(after[1].text, "Ligar para o cliente às 15h");
      assert.equal(after[1].createdAt, before[1].createdAt);
      assert.ok(after[1].updatedAt > before[1].updatedAt, "updatedAt moved");
      await items.nth(0).getByRole("button", { name: "Editar tarefa" }).click();
      await page.getByTestId("todo-edit-input").fill("  ");
      await page.getByTestId("todo-edit-input").press("Enter");
      await page.getByText("Enviar proposta").waitFor();

      // Kept across a reload (local storage), then deleted.
      await page.reload();
      await items.nth(1).waitFor({ timeout: 20_000 });
      await screenshot(page, "todolist");
      await items.nth(0).getByRole("button", { name: "Excluir tarefa" }).click();
      await page.getByText("Enviar proposta").waitFor({ state: "detached" });
      assert.deepEqual((await stored()).map((x: { text: string }) => x.text), ["Ligar para o cliente às 15h"]);
      assert.deepEqual(calls, [], "nothing was sent to the server");

      await page.context().addCookies([{ name: "theme", value: "dark", url: server.url }]);
      await page.setViewportSize({ width: 390, height: 800 });
      await page.reload();
      await items.first().waitFor({ timeout: 20_000 });
      await assertFitsWidth(page);
      await screenshot(page, "todolist_phone_dark");
    });
  },
});
