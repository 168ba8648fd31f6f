/**
 * Server-rendered admin pages (server/pages): the viewer comes from the refresh cookie, the
 * first page of data is in the HTML, a page the viewer may not open renders the gate's
 * message and no data, and no cookie (or a revoked one) renders the page without data.
 */
import assert from "node:assert/strict";
import { type Client, withServer } from "./helpers/server.ts";

async function page(client: Client, path: string): Promise<{ status: number; html: string }> {
  const headers: Record<string, string> = { accept: "text/html" };
  if (client.cookie) headers.cookie = client.cookie;
  const response = await fetch(client.baseUrl + path, { headers });
  return { status: response.status, html: await response.text() };
}

/** The props the server serialized for island `name`. */
function islandProps(html: string, name: string): Record<string, unknown> {
  const id = html.match(new RegExp(`data-island="${name}" data-island-id="(\\d+)"`))?.[1];
  assert.ok(id !== undefined, `island ${name} is on the page`);
  const json = html.match(new RegExp(`<script type="application/json" id="island-props-${id}">(.*?)</script>`))?.[1];
  return JSON.parse(json!);
}

Deno.test("GET /tags as a page carries the viewer's first page of tags in the HTML and props", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    await admin.post("/tags", { name: "Só da Demo" });
    const { status, html } = await page(admin, "/tags");
    assert.equal(status, 200);
    assert.match(html, /Só da Demo/, "the row is rendered on the server");
    const props = islandProps(html, "TagsPage");
    const initial = props.initial as { tags: { name: string }[] };
    assert.ok(initial.tags.some((t) => t.name === "Só da Demo"));
    assert.equal((props.viewer as { email: string }).email, "admin@demo.local");
    assert.ok(!JSON.stringify(props).includes("passwordHash"), "no secrets in the props");
  });
});

Deno.test("A page without a refresh cookie, or with a revoked one, renders without data", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const anonymous = server.client();
    const none = islandProps((await page(anonymous, "/tags")).html, "TagsPage");
    assert.equal(none.initial, null);
    assert.equal(none.viewer, null);
    const cookie = admin.cookie;
    assert.equal((await admin.delete("/auth/logout")).status, 200);
    admin.cookie = cookie;
    const revoked = islandProps((await page(admin, "/tags")).html, "TagsPage");
    assert.equal(revoked.initial, null, "a logged-out refresh token reads nothing");
  });
});

Deno.test("An agent opening an admin page gets the gate's message on the server and no data", async () => {
  await withServer(async (server) => {
    const agent = await server.login("agent@demo.local");
    for (const path of ["/users", "/queues", "/connections"]) {
      const { status, html } = await page(agent, path);
      assert.equal(status, 200);
      assert.match(html, /data-testid="gate-notice"[^>]*>Sem permissão para acessar!/, path);
      assert.doesNotMatch(html, /data-island="(Users|Queues|Connections)Page"/, `${path} ships no page island`);
    }
  });
});

Deno.test("Page data is the viewer's company's only", async () => {
  await withServer(async (server) => {
    const owner = await server.login("super@balcao.local");
    const admin = await server.login("admin@demo.local");
    await admin.post("/tags", { name: "Tag da Demo" });
    const { html } = await page(owner, "/tags");
    assert.doesNotMatch(html, /Tag da Demo/, "the platform company's page shows none of Demo's tags");
  });
});
