/**
 * GET /messages/metadados (link preview): refusals over HTTP, the HTML parser as a unit (the
 * address rule's own test is domain/network_address_test.ts), and a positive fetch from a
 * loopback page with the closed-network switch (`linkPreviewAllowPrivate`), which is off by
 * default and refuses such a page.
 */
import assert from "node:assert/strict";
import { previewFromHtml } from "../server/api/message_preview.ts";
import { withServer } from "./helpers/server.ts";

Deno.test("GET /messages/metadados refuses loopback, private and non-http URLs", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const target = Deno.serve(
      { port: 0, hostname: "127.0.0.1", onListen() {} },
      () => new Response("<title>secret</title>", { headers: { "content-type": "text/html" } }),
    );
    try {
      for (
        const url of [
          `http://127.0.0.1:${target.addr.port}/`,
          "http://127.0.0.1/",
          "http://[::1]/",
          "http://10.1.2.3/",
          "http://192.168.0.10/admin",
          "http://169.254.169.254/latest/meta-data",
          "http://[::ffff:127.0.0.1]/",
          "ftp://example.com/file",
          "file:///etc/passwd",
          "javascript:alert(1)",
          "http://user:pass@8.8.8.8/",
        ]
      ) {
        const r = await admin.get(`/messages/metadados?url=${encodeURIComponent(url)}`);
        assert.equal(r.status, 400, `${url} → ${r.status} ${JSON.stringify(r.body)}`);
      }
      assert.equal((await admin.get("/messages/metadados")).status, 400);
      assert.equal((await server.client().get("/messages/metadados?url=http://8.8.8.8/")).status, 401);
    } finally {
      await target.shutdown();
    }
  });
});

Deno.test("previewFromHtml() reads Open Graph and plain HTML metadata", async () => {
  const og = await previewFromHtml(
    "https://loja.example/produto",
    `<html><head><title>Fallback</title>
      <meta property="og:title" content="Tênis Azul">
      <meta property="og:description" content="Promoção de verão">
      <meta property="og:image" content="/img/tenis.jpg"></head></html>`,
  );
  assert.deepEqual(og, {
    url: "https://loja.example/produto",
    title: "Tênis Azul",
    description: "Promoção de verão",
    image: "https://loja.example/img/tenis.jpg",
  });
  const plain = await previewFromHtml("https://a.example/", "<title> Só título </title>");
  assert.equal(plain.title, "Só título");
  assert.equal(plain.description, null);
  assert.equal(plain.image, null);
});

Deno.test("previewFromHtml() keeps only an image the pages may show (https or a data: image)", async () => {
  const page = (image: string) => `<meta property="og:title" content="T"><meta property="og:image" content="${image}">`;
  assert.equal((await previewFromHtml("http://intranet.example/a", page("/logo.png"))).image, null, "plain http is refused by the page's CSP");
  assert.equal((await previewFromHtml("http://intranet.example/a", page("data:image/png;base64,iVBORw0KGgo="))).image, "data:image/png;base64,iVBORw0KGgo=");
  assert.equal((await previewFromHtml("https://loja.example/a", page("/logo.png"))).image, "https://loja.example/logo.png");
});

Deno.test("GET /messages/metadados fetches a loopback page when the closed-network switch is on, and lets the browser keep it", async () => {
  const target = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen() {} },
    () => new Response('<title>x</title><meta property="og:title" content="Intranet"><meta property="og:description" content="Página interna">', { headers: { "content-type": "text/html" } }),
  );
  try {
    await withServer(async (server) => {
      const admin = await server.login("admin@demo.local");
      const url = `http://127.0.0.1:${target.addr.port}/pagina`;
      const r = await admin.get(`/messages/metadados?url=${encodeURIComponent(url)}`);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.deepEqual(r.body, { url, title: "Intranet", description: "Página interna", image: null });
      assert.equal(r.headers.get("cache-control"), "private, max-age=86400");
      assert.equal((await admin.get("/messages/metadados?url=ftp://127.0.0.1/x")).status, 400, "still http(s) only");
    }, { linkPreviewAllowPrivate: true });
  } finally {
    await target.shutdown();
  }
});
