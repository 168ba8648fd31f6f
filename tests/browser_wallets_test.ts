/**
 * Browser test of /wallets (spec 002 §2.13): an agent sees only its own wallet (no user
 * picker), starts a ticket from a row (it lands on the conversation) and removes a contact
 * (walleteUserId cleared); an admin sees every wallet, picks one user's with the picker, and
 * rows follow wallet changes live (a contact put in the wallet shown appears, one moved out
 * disappears); 390 px in the dark theme. Screenshots: wallets, wallets_phone_dark.
 */
import assert from "node:assert/strict";
import type { TestServer } from "./helpers/server.ts";
import { assertFitsWidth, hasChromium, screenshot, watchSocket } from "./helpers/browser.ts";
import { signedInPage, withServerAndBrowser } from "./helpers/browser_session.ts";

const opts = { ignore: !hasChromium(), sanitizeOps: false, sanitizeResources: false };

const idOf = (server: TestServer, email: string) => server.demo!.logins.find((l) => l.email === email)!.id;

Deno.test({
  name: "WalletsPage: an agent's own wallet with start-ticket and remove; an admin's user picker and live rows",
  ...opts,
  async fn() {
    await withServerAndBrowser(async (server, chrome) => {
      const admin = await server.login("admin@demo.local");
      const agentId = idOf(server, "agent@demo.local");
      const supervisorId = idOf(server, "supervisor@demo.local");
      const contact = async (name: string, number: string, walleteUserId: number | null) => {
        const r = await admin.post("/contacts", { name, number, walleteUserId });
        assert.equal(r.status, 200, JSON.stringify(r.body));
        return r.body as { id: number };
      };
      const alice1 = await contact("Carla da Alice", "5511933301001", agentId);
      const alice2 = await contact("Bruno da Alice", "5511933301002", agentId);
      const sergio = await contact("Davi do Sérgio", "5511933301003", supervisorId);
      await contact("Sem carteira", "5511933301004", null);

      // The agent: its own wallet only, in the server's HTML, no picker.
      const agent = await signedInPage(chrome, server, "agent@demo.local");
      const html = await agent.evaluate(async () => (await fetch("/wallets", { headers: { accept: "text/html" } })).text());
      assert.match(html, /Carla da Alice/);
      assert.doesNotMatch(html, /Davi do Sérgio/);
      await agent.goto(`${server.url}/wallets`);
      const table = agent.getByTestId("wallets-table");
      await table.getByText("Carla da Alice").waitFor({ timeout: 20_000 });
      await table.getByText("Bruno da Alice").waitFor();
      assert.equal(await table.getByText("Davi do Sérgio").count(), 0);
      assert.equal(await table.getByText("Sem carteira").count(), 0);
      assert.equal(await agent.getByTestId("wallet-user").count(), 0, "no user picker for an agent");

      // Remove from the wallet (after the confirmation): the contact's walleteUserId is cleared.
      await table.locator("tr", { hasText: "Bruno da Alice" }).getByRole("button", { name: "Remover da carteira" }).click();
      await agent.getByText("Deseja remover Bruno da Alice desta carteira?").waitFor();
      await agent.getByTestId("confirm").click();
      await table.getByText("Bruno da Alice").waitFor({ state: "detached", timeout: 10_000 });
      assert.equal((await admin.get(`/contacts/${alice2.id}`)).body.walleteUserId, null);

      // Start a ticket from a row: the conversation opens.
      await table.locator("tr", { hasText: "Carla da Alice" }).getByRole("button", { name: "Iniciar atendimento" }).click();
      await agent.waitForURL(/\/tickets\/[0-9a-f-]{36}/, { timeout: 20_000 });
      const uuid = agent.url().split("/tickets/")[1];
      const ticket = (await admin.get(`/contacts/${alice1.id}/active-ticket`)).body;
      assert.equal(ticket.uuid, uuid);

      // The admin: every wallet, then one user's through the picker.
      const page = await signedInPage(chrome, server, "admin@demo.local");
      const socket = watchSocket(page);
      await page.goto(`${server.url}/wallets`);
      const all = page.getByTestId("wallets-table");
      await all.getByText("Davi do Sérgio").waitFor({ timeout: 20_000 });
      await all.getByText("Carla da Alice").waitFor();
      const gets: string[] = [];
      page.on("request", (r) => new URL(r.url()).pathname === "/wallets/contacts/" && gets.push(r.url()));
      await page.getByTestId("wallet-user").selectOption({ label: "Sérgio Supervisor" });
      await all.getByText("Carla da Alice").waitFor({ state: "detached", timeout: 10_000 });
      await all.getByText("Davi do Sérgio").waitFor();
      assert.ok(gets.some((u) => new URL(u).searchParams.get("userId") === String(supervisorId)), gets.join());

      // Live: a contact put in this wallet appears, one moved to another wallet disappears
      // (once the page's socket is up: an event before it is lost).
      await socket.ready();
      await admin.put(`/contacts/${alice2.id}`, { walleteUserId: supervisorId });
      await all.getByText("Bruno da Alice").waitFor({ timeout: 10_000 });
      await admin.put(`/contacts/${sergio.id}`, { walleteUserId: agentId });
      await all.getByText("Davi do Sérgio").waitFor({ state: "detached", timeout: 10_000 });
      await screenshot(page, "wallets");

      await page.context().addCookies([{ name: "theme", value: "dark", url: server.url }]);
      await page.setViewportSize({ width: 390, height: 800 });
      await page.reload();
      await all.getByText("Carla da Alice").waitFor({ timeout: 20_000 });
      await assertFitsWidth(page);
      await screenshot(page, "wallets_phone_dark");
    });
  },
});
