/**
 * GET /messages/metadados (link preview): refusals over HTTP, the address rule and the HTML
 * parser as units. A positive fetch would need a public server, which tests cannot reach;
 * a loopback test server is refused by design.
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
