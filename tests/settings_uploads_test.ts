/**
 * HTTP tests of the branding uploads and colours (spec 001 §2.10, §2.11, §5, §7): super-only
 * uploads, files judged by their bytes with the spec's refusal texts, the public reads with
 * safe headers, the certificate never served, and the platform's colours in every page's
 * first paint (public pages too), refused when they are not plain colours.
 */
import assert from "node:assert/strict";
import { withServer } from "./helpers/server.ts";
import { fileForm, p12Bytes, PDF_BYTES, pngBanner } from "./helpers/branding_files.ts";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { pageBranding } from "../server/media/branding_files.ts";
import { BrandingContext } from "../islands/branding/context.ts";
import { SignupDocLinks } from "../islands/branding/SignupDocLinks.tsx";

const html = { accept: "text/html" };

Deno.test("POST /settings/media-upload is for super users only and a stored logo is served publicly with safe headers", async () => {
  await withServer(async (server) => {
    const png = await pngBanner(40, 20, [200, 30, 30]);
    const anonymous = await server.client().post("/settings/media-upload?ref=login", fileForm("logo.png", png));
    assert.equal(anonymous.status, 401);
    const admin = await server.login("admin@demo.local");
    const denied = await admin.post("/settings/media-upload?ref=login", fileForm("logo.png", png));
    assert.equal(denied.status, 403);
    assert.equal(denied.body.error, "ERR_NO_PERMISSION");
    assert.equal((await admin.get("/branding/files")).status, 403);
    assert.equal((await server.client().get("/branding/login")).status, 404, "nothing on file yet");

    const owner = await server.login("super@balcao.local");
    const sent = await owner.post("/settings/media-upload?ref=login", fileForm("logo.png", png, "image/png"));
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    assert.equal(sent.body.message, "Arquivo anexado");
    assert.equal(sent.body.size, png.length);

    const read = await fetch(`${server.url}/branding/login`);
    assert.equal(read.status, 200);
    assert.equal(read.headers.get("content-type"), "image/png");
    assert.equal(read.headers.get("x-content-type-options"), "nosniff");
    assert.deepEqual(new Uint8Array(await read.arrayBuffer()), png);
    const again = await fetch(`${server.url}/branding/login`, { headers: { "if-none-match": read.headers.get("etag")! } });
    assert.equal(again.status, 304);
    await again.body?.cancel();

    const files = await owner.get("/branding/files");
    assert.equal(files.status, 200);
    assert.equal(files.body.logo.login.size, png.length);
    assert.equal(files.body.logo.signup, null);
    assert.equal(files.body.cert.certificadoEfi, null);
  });
});

Deno.test("POST /settings/*-upload refuses a missing file or destination and wrong types with the spec's texts", async () => {
  await withServer(async (server) => {
    const owner = await server.login("super@balcao.local");
    const png = await pngBanner(8, 8, [0, 0, 0]);
    const refusal = async (path: string, form: FormData | Record<string, never>) => {
      const r = await owner.post(path, form);
      assert.equal(r.status, 400, `${path}: ${JSON.stringify(r.body)}`);
      assert.equal(r.body.error, "ERR_VALIDATION");
      return r.body.fields as Record<string, string>;
    };
    assert.deepEqual(await refusal("/settings/media-upload?ref=login", {}), { file: "Escolha um arquivo!" });
    assert.deepEqual(await refusal("/settings/media-upload?ref=login", new FormData()), { file: "Escolha um arquivo!" });
    assert.deepEqual(await refusal("/settings/media-upload", fileForm("a.png", png)), { ref: "Escolha um destino!" });
    assert.deepEqual(await refusal("/settings/media-upload?ref=../x", fileForm("a.png", png)), { ref: "Escolha um destino!" });
    assert.deepEqual(await refusal("/settings/doc-upload?ref=login", fileForm("a.pdf", PDF_BYTES)), { ref: "Escolha um destino!" });

    const notPng = { file: "Use somente arquivos em formato PNG!" };
    // A JPEG renamed .png and a PNG renamed .jpg are both refused: the name and the bytes must agree.
    const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1]);
    assert.deepEqual(await refusal("/settings/media-upload?ref=login", fileForm("logo.png", jpeg)), notPng);
    assert.deepEqual(await refusal("/settings/media-upload?ref=login", fileForm("logo.jpg", png)), notPng);
    const html = new TextEncoder().encode("<script>alert(1)</script>");
    assert.deepEqual(await refusal("/settings/media-upload?ref=favicon-32x32", fileForm("x.png", html)), notPng);

    const notPdf = { file: "Use somente arquivos em formato PDF!" };
    assert.deepEqual(await refusal("/settings/doc-upload?ref=termos", fileForm("termos.pdf", png)), notPdf);
    assert.deepEqual(await refusal("/settings/doc-upload?ref=termos", fileForm("termos.txt", PDF_BYTES)), notPdf);

    const notP12 = { file: "Use somente arquivos em formato p12!" };
    assert.deepEqual(await refusal("/settings/cert-upload?ref=certificadoEfi", fileForm("cert.pem", p12Bytes())), notP12);
    assert.deepEqual(await refusal("/settings/cert-upload?ref=certificadoEfi", fileForm("cert.p12", PDF_BYTES)), notP12);

    const files = await owner.get("/branding/files");
    assert.equal(files.body.logo.login, null, "no refused upload was stored");

    // Over the logo cap (2 MB) is refused before it is stored.
    const big = new Uint8Array(2 * 1024 * 1024 + 100);
    big.set(png.subarray(0, 8));
    const tooBig = await owner.post("/settings/media-upload?ref=login", fileForm("big.png", big));
    assert.equal(tooBig.status, 413);
  });
});

Deno.test("Documents are served as PDF and the Pix certificate is stored but never served", async () => {
  await withServer(async (server) => {
    const owner = await server.login("super@balcao.local");
    const doc = await owner.post("/settings/doc-upload?ref=termos", fileForm("Termos de Uso.pdf", PDF_BYTES));
    assert.equal(doc.status, 200, JSON.stringify(doc.body));
    assert.equal(doc.body.message, "Arquivo anexado");
    const read = await fetch(`${server.url}/branding/docs/termos`);
    assert.equal(read.status, 200);
    assert.equal(read.headers.get("content-type"), "application/pdf");
    assert.equal(read.headers.get("x-content-type-options"), "nosniff");
    assert.deepEqual(new Uint8Array(await read.arrayBuffer()), PDF_BYTES);
    assert.equal((await fetch(`${server.url}/branding/docs/privacidade`).then((r) => (r.body?.cancel(), r.status))), 404);

    const cert = await owner.post("/settings/cert-upload?ref=certificadoEfi", fileForm("efi.p12", p12Bytes()));
    assert.equal(cert.status, 200, JSON.stringify(cert.body));
    assert.equal(cert.body.message, "Arquivo anexado");
    assert.equal((await owner.get("/branding/files")).body.cert.certificadoEfi.size, p12Bytes().length);
    for (const path of ["/branding/certificadoEfi", "/branding/docs/certificadoEfi", "/branding/private", "/media/0/certificadoEfi.p12"]) {
      const r = await fetch(server.url + path);
      await r.body?.cancel();
      assert.ok(r.status === 404 || r.status === 403, `${path} answered ${r.status}`);
    }
  });
});

Deno.test("Branding colours are super-only global settings, validated, and in every page's head from the first paint", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    assert.equal((await admin.put("/settings/mainColor", { value: "#dc2626" })).status, 403, "colours are the platform's");
    const owner = await server.login("super@balcao.local");
    for (const [key, value] of [["mainColor", "red"], ["mainColor", "#dc2626;}body{x:y"], ["scrollbarColor", "</style>"], [
      "backgroundPages",
      'https://x/a.png") ; background:url("https://evil',
    ], ["backgroundPages", "javascript:alert(1)"], ["toolbarBackground", "#12345"]]) {
      const r = await owner.put(`/settings/${key}`, { value });
      assert.equal(r.status, 400, `${key}=${value} accepted`);
    }
    assert.equal((await owner.put("/settings/mainColor", { value: "#DC2626" })).status, 200);
    assert.equal((await owner.put("/settings/backgroundPages", { value: "/branding/login?v=1" })).status, 200);

    // A public page (no viewer) and a company's private page both carry the platform's colours.
    const login = await (await fetch(`${server.url}/login`, { headers: html })).text();
    assert.match(login, /<style id="branding-tokens"[^>]*>:root\{--primary:#DC2626;--scrollbar:#94a3b8;--page-bg-image:url\("\/branding\/login\?v=1"\)\}<\/style>/);
    assert.match(login, /<link rel="icon" href="\/static\/favicon.svg"/);
    const me = await admin.get("/auth/me");
    assert.equal(me.body.company.settings.find((s: { key: string }) => s.key === "mainColor").value, "#DC2626");
    await admin.post("/auth/login", { email: "admin@demo.local", password: "demo1234" });
    const tickets = await (await fetch(`${server.url}/tickets`, { headers: { ...html, cookie: admin.cookie } })).text();
    assert.match(tickets, /--primary:#DC2626/);

    // An uploaded favicon replaces the default icon on every page.
    const png = await pngBanner(32, 32, [220, 38, 38]);
    assert.equal((await owner.post("/settings/media-upload?ref=favicon-32x32", fileForm("f.png", png))).status, 200);
    assert.equal((await owner.post("/settings/media-upload?ref=login", fileForm("l.png", png))).status, 200);
    const branded = await (await fetch(`${server.url}/login`, { headers: html })).text();
    assert.match(branded, /<link rel="icon" type="image\/png" sizes="32x32" href="\/branding\/favicon-32x32\?v=\d+">/);
    assert.doesNotMatch(branded, /favicon.svg/);
    assert.match(branded, /<img class="brand-logo" src="\/branding\/login\?v=\d+"/);
    assert.doesNotMatch(branded, /\.drawer-brand\{background/, "no app logo uploaded yet");
    assert.equal((await owner.post("/settings/media-upload?ref=interno", fileForm("i.png", png))).status, 200);
    const app = await (await fetch(`${server.url}/tickets`, { headers: { ...html, cookie: admin.cookie } })).text();
    assert.match(app, /\.drawer-brand\{background:url\("\/branding\/interno\?v=\d+"\)/);
  });
});

Deno.test("pageBranding() offers the sign-up page a document only when it is on file and its view setting is on", async () => {
  await withServer(async (server) => {
    const { system, config } = server.deps;
    const owner = await server.login("super@balcao.local");
    const links = async () => {
      const branding = await pageBranding(system, config.dataDir);
      return renderToString(createElement(BrandingContext.Provider, { value: branding }, createElement(SignupDocLinks)));
    };
    assert.equal(await links(), "", "nothing uploaded, nothing shown");
    await owner.post("/settings/doc-upload?ref=termos", fileForm("t.pdf", PDF_BYTES));
    await owner.post("/settings/doc-upload?ref=privacidade", fileForm("p.pdf", PDF_BYTES));
    assert.equal(await links(), "", "viewterms and viewprivacy are off by default");
    assert.equal((await owner.put("/settings/viewterms", { value: "enabled" })).status, 200);
    const terms = await links();
    assert.match(terms, /<a href="\/branding\/docs\/termos\?v=\d+" target="_blank" rel="noopener">Termos de uso<\/a>/);
    assert.doesNotMatch(terms, /privacidade/);
    assert.equal((await owner.put("/settings/viewprivacy", { value: "enabled" })).status, 200);
    assert.match(await links(), /Política de privacidade/);
  });
});
