/**
 * GET /messages/metadados (link preview): refusals over HTTP, the address rule and the HTML
 * parser as units, and a positive fetch from a loopback page with the closed-network switch
 * (`linkPreviewAllowPrivate`), which is off by default and refuses such a page.
 */
import assert from "node:assert/strict";
import { isPublicAddress, previewFromHtml } from "../server/api/message_preview.ts";
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

Deno.test("isPublicAddress() accepts public unicast only", () => {
  for (const ip of ["8.8.8.8", "1.1.1.1", "2001:4860:4860::8888", "::ffff:8.8.8.8"]) {
    assert.equal(isPublicAddress(ip), true, ip);
  }
  for (
    const ip of [
      "127.0.0.1",
      "10.0.0.1",
      "172.16.5.4",
      "172.31.255.255",
      "192.168.1.1",
      "169.254.1.1",
      "100.64.0.1",
      "0.0.0.0",
      "224.0.0.1",
      "255.255.255.255",
      "::1",
      "::",
      "fc00::1",
      "fd12:3456::1",
      "fe80::1",
      "ff02::1",
      "::ffff:10.0.0.1",
      "::ffff:127.0.0.1",
      "64:ff9b::7f00:1",
      "not-an-ip",
      "999.1.1.1",
    ]
  ) {
    assert.equal(isPublicAddress(ip), false, ip);
  }
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
