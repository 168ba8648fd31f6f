/**
 * Server-rendered pages of the public flows (issue #16): /signup, /forgotpassword and /login
 * render for a visitor with their own islands and stylesheet; /subscription carries the
 * viewer's own company in the HTML, and nothing of it for a profile that may not read it.
 */
import assert from "node:assert/strict";
import { type Client, withServer } from "./helpers/server.ts";

async function page(client: Client, path: string): Promise<{ status: number; html: string }> {
  const headers: Record<string, string> = { accept: "text/html" };
  if (client.cookie) headers.cookie = client.cookie;
  const response = await fetch(client.baseUrl + path, { headers });
  return { status: response.status, html: await response.text() };
}

Deno.test("the public flows' pages render for a visitor, each with its own island and public.css", async () => {
  await withServer(async (server) => {
    const visitor = server.client();
    for (const [path, island, text] of [
      ["/signup", "SignupPage", "Cadastro"],
      ["/forgotpassword", "ForgotPasswordPage", "Informe o e-mail da sua conta"],
      ["/login", "Login", "Esqueceu a senha?"],
    ]) {
      const { status, html } = await page(visitor, path);
      assert.equal(status, 200, path);
      assert.match(html, new RegExp(`data-island="${island}"`), path);
      assert.match(html, /\/static\/pages\/public\.css/, path);
      assert.ok(html.includes(text), `${path} shows ${text}`);
    }
  });
});

Deno.test("GET /subscription as a page renders the viewer's own company; a plain user gets the gate and no data", async () => {
  await withServer(async (server) => {
    const owner = await server.login("super@balcao.local");
    await owner.put(`/companies/${server.demo!.companyId}`, { name: "Demo", email: "financeiro@demo.local" });
    const admin = await server.login("admin@demo.local");
    const { status, html } = await page(admin, "/subscription");
    assert.equal(status, 200);
    assert.match(html, /financeiro@demo\.local/, "the billing e-mail is in the server's HTML");
    assert.match(html, /Próxima cobrança em/);
    assert.match(html, /Mudar Plano/);

    const agent = await server.login("agent@demo.local");
    const denied = await page(agent, "/subscription");
    assert.match(denied.html, /Sem permissão para acessar!/);
    assert.doesNotMatch(denied.html, /financeiro@demo\.local/);
  });
});

Deno.test("/signup and /login read the sign-up switches and plans on the server: the first paint has the form or the closed note, and the link", async () => {
  await withServer(async (server) => {
    const visitor = server.client();
    const closed = await page(visitor, "/signup");
    assert.match(closed.html, /data-testid="signup-closed"/, "closed by default, said in the first paint");
    assert.doesNotMatch((await page(visitor, "/login")).html, /href="\/signup"/, "no sign-up link while closed");

    const owner = await server.login("super@balcao.local");
    for (const key of ["allowregister", "viewregister"]) {
      assert.equal((await owner.put(`/settings/${key}`, { value: "enabled" })).status, 200, key);
    }
    const plans = (await visitor.get("/plans/register")).body as { name: string }[];
    const open = await page(visitor, "/signup");
    assert.doesNotMatch(open.html, /data-testid="signup-closed"/);
    assert.match(open.html, /name="namecomplete"/, "the form is in the server's HTML");
    for (const plan of plans) assert.ok(open.html.includes(plan.name), `plan ${plan.name} offered in the first paint`);
    assert.match((await page(visitor, "/login")).html, /href="\/signup"/, "the login page links to sign-up from the first paint");
  });
});
