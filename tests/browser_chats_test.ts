/**
 * Browser test of /chats (spec 002 §2.8, §5, §9; issue #20): two users chat live in two
 * browser contexts. The dialog's two alerts stop an empty form before any call; a new chat
 * reaches the other user's list live; a message raises the other's unread badges (chat row
 * and menu) until read; Enter sends, Shift+Enter breaks the line, a blank message is not
 * sent; only the owner sees edit and delete; the server's HTML holds the conversation; older
 * messages load when scrolled near the top; Chats/Mensagens tabs at 390 px, light and dark.
 */
import assert from "node:assert/strict";
import { chatOf } from "../actors/chats/mod.ts";
import { companyUsers } from "../actors/platform/lookup.ts";
import { assertFitsWidth, hasChromium, screenshot, watchSocket } from "./helpers/browser.ts";
import { signedInPage, withServerAndBrowser } from "./helpers/browser_session.ts";

const opts = { ignore: !hasChromium(), sanitizeOps: false, sanitizeResources: false };

Deno.test({
  name: "ChatsPage: two users chat live, with unread badges, the composer's keys, older pages and phone tabs",
  ...opts,
  async fn() {
    await withServerAndBrowser(async (server, chrome) => {
      const companyId = server.demo!.companyId;
      const users = await companyUsers(server.deps.system, companyId);
      const adminUser = users.find((u) => u.email === "admin@demo.local")!;
      const agentUser = users.find((u) => u.email === "agent@demo.local")!;

      const admin = await signedInPage(chrome, server, "admin@demo.local", { viewport: { width: 1280, height: 800 } });
      const agent = await signedInPage(chrome, server, "agent@demo.local", { viewport: { width: 1280, height: 800 } });
      const agentSocket = watchSocket(agent);
      await agent.goto(`${server.url}/chats`);
      await agent.getByText("Nenhuma conversa ainda", { exact: false }).waitFor({ timeout: 20_000 });
      // The new chat reaches this list live: its socket is up first (an event before it is lost).
      await agentSocket.ready();
      await admin.goto(`${server.url}/chats`);
      await admin.getByTestId("chat-new").waitFor({ timeout: 20_000 });

      // The dialog's alerts, with no call made for an empty form.
      const posts: string[] = [];
      admin.on("request", (r) => r.method() === "POST" && new URL(r.url()).pathname.startsWith("/chats") && posts.push(new URL(r.url()).pathname));
      await admin.getByTestId("chat-new").click();
      const dialog = admin.getByRole("dialog");
      await dialog.getByTestId("chat-save").click();
      await dialog.getByText("Por favor, preencha o título da conversa.").waitFor({ timeout: 10_000 });
      await dialog.getByText("Por favor, selecione pelo menos um usuário.").waitFor();
      assert.deepEqual(posts, [], "an invalid form never reaches the server");
      await dialog.getByLabel("Título").fill("Plantão de sábado");
      await dialog.getByLabel(agentUser.name).check();
      await dialog.getByTestId("chat-save").click();
      await dialog.waitFor({ state: "detached", timeout: 10_000 });
      await admin.getByTestId("chat-title").getByText("Plantão de sábado").waitFor({ timeout: 10_000 });
      await admin.waitForURL(/\/chats\/[0-9a-f-]{36}$/);
      const uuid = new URL(admin.url()).pathname.split("/")[2];

      // The new chat reaches the agent's list live; a message raises both unread badges.
      const agentRow = agent.getByTestId("chat-list").getByRole("button", { name: /Plantão de sábado/ });
      await agentRow.waitFor({ timeout: 10_000 });
      const input = admin.getByTestId("chat-input");
      await input.fill("Olá, agente!");
      await input.press("Enter");
      await admin.getByTestId("chat-messages").getByText("Olá, agente!").waitFor({ timeout: 10_000 });
      assert.equal(await input.inputValue(), "");
      await agentRow.getByTestId("chat-unread").getByText("1").waitFor({ timeout: 10_000 });
      await agent.getByTestId("chats-unread").getByText("1").waitFor({ timeout: 10_000 });

      // Opening the chat reads it: the badges go; the agent is no owner (no edit, no delete).
      await agentRow.click();
      await agent.getByTestId("chat-messages").getByText("Olá, agente!").waitFor({ timeout: 10_000 });
      await agent.getByTestId("chats-unread").waitFor({ state: "detached", timeout: 10_000 });
      // The row's badge goes with the read call's answer, the menu's with its own re-read.
      await agentRow.getByTestId("chat-unread").waitFor({ state: "detached", timeout: 10_000 });
      assert.equal(await agentRow.getByTestId("chat-unread").count(), 0);
      assert.equal(await agent.getByRole("button", { name: "Editar conversa" }).count(), 0);
      assert.equal(await agent.getByRole("button", { name: "Excluir conversa" }).count(), 0);
      assert.equal(await admin.getByRole("button", { name: "Editar conversa" }).count(), 1);

      // Shift+Enter breaks the line, Enter sends; a blank message is not sent.
      const agentInput = agent.getByTestId("chat-input");
      await agentInput.fill("Linha 1");
      await agentInput.press("Shift+Enter");
      await agentInput.pressSequentially("Linha 2");
      assert.equal(await agentInput.inputValue(), "Linha 1\nLinha 2");
      await agentInput.press("Enter");
      const bubble = admin.getByTestId("chat-message").filter({ hasText: "Linha 2" });
      await bubble.waitFor({ timeout: 10_000 });
      assert.equal((await bubble.locator(".bubble-text").innerText()).trim(), "Linha 1\nLinha 2");
      const agentPosts: string[] = [];
      agent.on("request", (r) => r.method() === "POST" && new URL(r.url()).pathname.endsWith("/messages") && agentPosts.push(r.url()));
      await agentInput.fill("   ");
      await agentInput.press("Enter");
      assert.ok(await agent.getByTestId("chat-send").isDisabled());
      await agent.waitForTimeout(300);
      assert.deepEqual(agentPosts, [], "a blank message is not sent");
      await screenshot(admin, "chats_desktop");

      // Older messages: 45 more; the server's HTML holds the newest, the top loads the rest.
      const chatId = (await admin.evaluate(async (u) => (await (await fetch(`/chats/${u}`, { headers: { authorization: `Bearer ${localStorage.getItem("token")}` } })).json()).id, uuid)) as number;
      for (let i = 1; i <= 45; i++) {
        await chatOf(server.deps.system, companyId, chatId).ask("post", { by: i % 2 ? adminUser.id : agentUser.id, message: `Histórico ${i}` });
      }
      const html = await agent.evaluate(async (u) => (await fetch(`/chats/${u}`, { headers: { accept: "text/html" } })).text(), uuid);
      assert.match(html, /Histórico 45/);
      assert.doesNotMatch(html, /Histórico 20</, "only the newest page is in the HTML");
      await agent.goto(`${server.url}/chats/${uuid}`);
      const pane = agent.getByTestId("chat-messages");
      await pane.getByText("Histórico 45").waitFor({ timeout: 20_000 });
      for (let round = 0; round < 10 && await pane.getByText("Olá, agente!").count() === 0; round++) {
        await pane.evaluate((el) => (el.scrollTop = 0));
        await agent.waitForTimeout(400);
      }
      await pane.getByText("Olá, agente!").waitFor({ timeout: 10_000 });
      assert.equal(await pane.getByText("Histórico 1", { exact: true }).count(), 1);

      // Phone width: the two tabs; the open chat and the list, light then dark.
      await agent.setViewportSize({ width: 390, height: 800 });
      await agent.getByTestId("chats-tab-messages").waitFor();
      await assertFitsWidth(agent, "/chats with a chat open");
      await screenshot(agent, "chats_phone");
      await agent.getByTestId("chats-tab-list").click();
      await agent.getByTestId("chat-list").waitFor();
      assert.ok(!(await pane.isVisible()), "the Chats tab hides the messages");
      await agent.evaluate(() => document.documentElement.setAttribute("data-theme", "dark"));
      await assertFitsWidth(agent, "/chats list in the dark theme");
      await screenshot(agent, "chats_phone_dark_list");
      await agent.getByTestId("chats-tab-messages").click();
      await pane.getByText("Histórico 45").waitFor();
      await screenshot(agent, "chats_phone_dark");

      // The owner deletes: the chat leaves the agent's list live.
      await admin.getByRole("button", { name: "Excluir conversa" }).click();
      await admin.getByTestId("confirm").click();
      await agent.getByTestId("chats-tab-list").click();
      await agent.getByText("Nenhuma conversa ainda", { exact: false }).waitFor({ timeout: 10_000 });
    });
  },
});
