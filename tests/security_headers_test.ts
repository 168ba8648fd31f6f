/**
 * Security headers on every answer over real HTTP (server/http/security_headers.ts, #24):
 * pages carry their CSP with a fresh nonce that only the branding's `<style>` elements bear
 * and no inline script besides the JSON props; API answers, errors and files carry a CSP that
 * allows nothing; HSTS only over TLS, where X-Forwarded-Proto counts only with trustProxy;
 * uploaded HTML and SVG come back as attachments of a type no browser renders, sandboxed.
 */
import assert from "node:assert/strict";
import { withServer } from "./helpers/server.ts";
import { freshNumber, inboundText, receive } from "./helpers/messages.ts";
import { fileForm, PDF_BYTES } from "./helpers/branding_files.ts";

/** The headers every answer must have. */
function assertBase(headers: Headers, what: string) {
  assert.equal(headers.get("x-content-type-options"), "nosniff", what);
  assert.equal(headers.get("referrer-policy"), "same-origin", what);
  assert.equal(headers.get("x-frame-options"), "DENY", what);
  assert.match(headers.get("content-security-policy") ?? "", /frame-ancestors 'none'/, what);
}

Deno.test("pages: CSP with a per-response nonce on the branding styles, and no inline script but the JSON props", async () => {
  await withServer(async (server) => {
    const nonces = new Set<string>();
    // /simulator, the customer's phone, is an app page like the others (issue #37).
    for (const path of ["/login", "/signup", "/api-docs", "/simulator"]) {
      const response = await fetch(server.url + path, { headers: { accept: "text/html" } });
      const html = await response.text();
      assertBase(response.headers, path);
      const csp = response.headers.get("content-security-policy")!;
      assert.match(csp, /default-src 'self'/);
      assert.match(csp, /script-src 'self';/, "no inline script, no eval");
      assert.match(csp, /object-src 'none'/);
      assert.match(csp, /base-uri 'none'/);
      const nonce = /style-src-elem 'self' 'nonce-([^']+)'/.exec(csp)?.[1];
      assert.ok(nonce, `${path} names a style nonce`);
      nonces.add(nonce);
      const styles = [...html.matchAll(/<style([^>]*)>/g)].map((m) => m[1]);
      assert.ok(styles.length >= 1);
      for (const attrs of styles) assert.ok(attrs.includes(`nonce="${nonce}"`), `${path}: <style${attrs}> bears the nonce`);
      for (const [tag] of html.matchAll(/<script[^>]*>/g)) {
        assert.ok(/ src="\/build\//.test(tag) || tag.includes('type="application/json"'), `${path}: ${tag} is a bundle or data`);
      }
      assert.equal(response.headers.get("strict-transport-security"), null, "no HSTS over plain HTTP");
    }
    assert.equal(nonces.size, 4, "a fresh nonce per response");
  });
});

Deno.test("API answers, errors and static files: nosniff, same-origin referrer, a CSP that allows nothing", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const answers: [string, Response][] = [
      ["GET /health", await fetch(`${server.url}/health`)],
      ["GET /tags/list", await fetch(`${server.url}/tags/list`, { headers: { authorization: `Bearer ${admin.token}` } })],
      ["401", await fetch(`${server.url}/tags/list`)],
      ["404 route", await fetch(`${server.url}/nothing-here`)],
      ["400 body", await fetch(`${server.url}/auth/login`, { method: "POST", body: "{", headers: { "content-type": "application/json" } })],
      ["static css", await fetch(`${server.url}/static/app.css`)],
      ["openapi", await fetch(`${server.url}/openapi.json`)],
    ];
    for (const [what, response] of answers) {
      await response.body?.cancel();
      assertBase(response.headers, what);
      assert.match(response.headers.get("content-security-policy")!, /^default-src 'none'/, what);
    }
    // A PDF (the platform's terms) opens in the browser's viewer: nosniff, but no policy that would stop it.
    const owner = await server.login("super@balcao.local");
    assert.equal((await owner.post("/settings/doc-upload?ref=termos", fileForm("termos.pdf", PDF_BYTES))).status, 200);
    const pdf = await fetch(`${server.url}/branding/docs/termos`);
    await pdf.body?.cancel();
    assert.equal(pdf.headers.get("content-type"), "application/pdf");
    assert.equal(pdf.headers.get("x-content-type-options"), "nosniff");
    assert.equal(pdf.headers.get("content-security-policy"), null);
  });
});

Deno.test("HSTS only over TLS: X-Forwarded-Proto is believed only when trustProxy is configured", async () => {
  const proto = { "x-forwarded-proto": "https", accept: "text/html" };
  await withServer(async (server) => {
    const spoofed = await fetch(`${server.url}/login`, { headers: proto });
    await spoofed.body?.cancel();
    assert.equal(spoofed.headers.get("strict-transport-security"), null, "not configured: the header is ignored");
  });
  await withServer(async (server) => {
    const proxied = await fetch(`${server.url}/login`, { headers: proto });
    await proxied.body?.cancel();
    assert.match(proxied.headers.get("strict-transport-security") ?? "", /^max-age=31536000/);
    const api = await fetch(`${server.url}/health`, { headers: proto });
    await api.body?.cancel();
    assert.match(api.headers.get("strict-transport-security") ?? "", /max-age/);
    const plain = await fetch(`${server.url}/login`, { headers: { accept: "text/html", "x-forwarded-proto": "http" } });
    await plain.body?.cancel();
    assert.equal(plain.headers.get("strict-transport-security"), null, "the proxy says plain HTTP");
    // Behind the proxy the device cookie is Secure.
    const login = await fetch(`${server.url}/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-proto": "https" },
      body: JSON.stringify({ email: "agent@demo.local", password: "demo1234" }),
    });
    await login.body?.cancel();
    assert.match(login.headers.getSetCookie().find((c) => c.startsWith("jdv="))!, /Secure/);
  }, { trustProxy: true });
});

Deno.test("media: uploaded HTML and SVG download as sandboxed attachments of an inert type", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const { ticketId } = await receive(server, inboundText(freshNumber(), "manda o arquivo"));
    assert.equal((await admin.put(`/tickets/${ticketId}`, { status: "open" })).status, 200);
    const evil = "<html><script>alert(document.cookie)</script></html>";
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';
    const form = new FormData();
    form.append("medias", new File([evil], "pagina.html", { type: "text/html" }));
    form.append("medias", new File([svg], "desenho.svg", { type: "image/svg+xml" }));
    form.append("medias", new File([evil], "foto.png", { type: "image/png" }));
    form.append("medias", new File([svg], "semextensao", { type: "image/svg+xml" }));
    const sent = await admin.post(`/messages/${ticketId}`, form);
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    const seen: string[] = [];
    for (const message of sent.body.messages as { mediaUrl: string; mediaName: string }[]) {
      const response = await fetch(server.url + message.mediaUrl);
      await response.body?.cancel();
      const type = response.headers.get("content-type") ?? "";
      const disposition = response.headers.get("content-disposition") ?? "";
      const csp = response.headers.get("content-security-policy") ?? "";
      seen.push(`${message.mediaName}: ${type}; ${disposition.split(";")[0]}`);
      assert.doesNotMatch(type, /html|svg|xml|javascript/, message.mediaName);
      assert.equal(response.headers.get("x-content-type-options"), "nosniff");
      assert.match(csp, /sandbox/, `${message.mediaName} is sandboxed`);
      assert.match(csp, /default-src 'none'/);
      if (!type.startsWith("image/")) assert.match(disposition, /^attachment/, message.mediaName);
    }
    assert.deepEqual(seen, [
      "pagina.html: application/octet-stream; attachment",
      "desenho.svg: application/octet-stream; attachment",
      "foto.png: image/png; inline",
      "semextensao: application/octet-stream; attachment",
    ]);
  });
});
