import assert from "node:assert/strict";
import { assertPublicUrl, BlockedUrl, publicFetch } from "./public_fetch.ts";

/** A loopback server answering with `respond`, counting its requests. */
function serve(respond: (req: Request) => Response | Promise<Response>) {
  const seen: Request[] = [];
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, (req) => {
    seen.push(req);
    return respond(req);
  });
  return { url: `http://127.0.0.1:${server.addr.port}`, host: `127.0.0.1:${server.addr.port}`, seen, close: () => server.shutdown() };
}

Deno.test("assertPublicUrl() refuses other schemes, credentials, ports not listed and every private literal", async () => {
  for (
    const url of [
      "ftp://example.com/",
      "file:///etc/passwd",
      "http://user:pw@8.8.8.8/",
      "http://127.0.0.1:8377/",
      "http://[::1]/",
      "http://169.254.169.254/latest/meta-data",
      "http://[fd00::1]/",
      "http://0.0.0.0/",
    ]
  ) {
    await assert.rejects(assertPublicUrl(new URL(url)), BlockedUrl, url);
  }
  await assert.rejects(assertPublicUrl(new URL("http://8.8.8.8:22/"), { ports: new Set(["", "443"]) }), BlockedUrl);
  await assertPublicUrl(new URL("https://8.8.8.8/"));
  // The operator's exception: every private host, or the ones named (with or without port).
  await assertPublicUrl(new URL("http://127.0.0.1:8377/"), { allowPrivate: true });
  await assertPublicUrl(new URL("http://127.0.0.1:8377/"), { allowPrivate: ["127.0.0.1:8377"] });
  await assertPublicUrl(new URL("http://[::1]:9/"), { allowPrivate: ["::1"] });
  await assert.rejects(assertPublicUrl(new URL("http://127.0.0.1:8378/"), { allowPrivate: ["127.0.0.1:8377"] }), BlockedUrl);
});

Deno.test("publicFetch() checks every redirect's target: an allowed host cannot bounce a call into a refused one", async () => {
  const inside = serve(() => new Response("secret"));
  const bouncer = serve(() => new Response(null, { status: 302, headers: { location: `${inside.url}/admin` } }));
  try {
    await assert.rejects(
      publicFetch(`${bouncer.url}/go`, {}, { allowPrivate: [bouncer.host], maxRedirects: 3 }),
      BlockedUrl,
    );
    assert.equal(bouncer.seen.length, 1);
    assert.equal(inside.seen.length, 0, "the redirect's target was never called");
    // Not following redirects: the 3xx is the answer.
    const answer = await publicFetch(`${bouncer.url}/go`, {}, { allowPrivate: [bouncer.host] });
    assert.equal(answer.status, 302);
    await answer.body?.cancel();
    assert.equal(inside.seen.length, 0);
  } finally {
    await inside.close();
    await bouncer.close();
  }
});

Deno.test("publicFetch() follows allowed redirects as fetch does (a 303 after a POST becomes a GET) and stops after maxRedirects", async () => {
  const target = serve((req) => new Response(`${req.method} ${new URL(req.url).pathname} ${req.headers.get("content-type")}`));
  const see = serve((req) => new Response(null, { status: req.url.endsWith("/loop") ? 302 : 303, headers: { location: req.url.endsWith("/loop") ? "/loop" : `${target.url}/done` } }));
  try {
    const allowPrivate = [target.host, see.host];
    const r = await publicFetch(`${see.url}/post`, { method: "POST", body: "x", headers: { "content-type": "text/plain" } }, { allowPrivate, maxRedirects: 3 });
    assert.equal(await r.text(), "GET /done null", "the body's type went with the body");
    await assert.rejects(publicFetch(`${see.url}/loop`, {}, { allowPrivate, maxRedirects: 2 }), /More than 2 redirects/);
    assert.equal(see.seen.filter((req) => req.url.endsWith("/loop")).length, 3);
  } finally {
    await target.close();
    await see.close();
  }
});
