/**
 * GET /messages/metadados (link preview): refusals over HTTP and the HTML parser as a unit
 * (the address rule's own test is domain/network_address_test.ts). A positive fetch would
 * need a public server, which tests cannot reach; a loopback test server is refused by design.
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
