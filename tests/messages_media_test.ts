/** Multipart uploads and signed media URLs (GET /media/{companyId}/{file}?exp&sig). */
import assert from "node:assert/strict";
import { deleteTicketMessages, findByProvider, getMessage, messageLogKey } from "../actors/messages/mod.ts";
import { signMediaUrl } from "../domain/media_url.ts";
import { makeContact } from "./helpers/fixtures.ts";
import { type TestServer, withServer } from "./helpers/server.ts";
import { createTenant } from "./helpers/tenants.ts";
import { freshNumber, inboundText, receive } from "./helpers/messages.ts";

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4, 5]);

async function openTicket(server: TestServer) {
  const admin = await server.login("admin@demo.local");
  const { ticketId } = await receive(server, inboundText(freshNumber(), "manda a foto"));
  assert.equal((await admin.put(`/tickets/${ticketId}`, { status: "open" })).status, 200);
  return { admin, ticketId };
}

Deno.test("POST /messages/{ticketId} multipart stores each file as a media message with a signed URL", async () => {
  await withServer(async (server) => {
    const { admin, ticketId } = await openTicket(server);
    const form = new FormData();
    form.append("medias", new File([PNG], "foto.png", { type: "image/png" }));
    form.append("medias", new File(["a,b\n1,2\n"], "planilha.csv", { type: "text/csv" }));
    form.append("body", "legenda");
    const sent = await admin.post(`/messages/${ticketId}`, form);
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    const [image, doc] = sent.body.messages;
    assert.equal(image.mediaType, "image");
    assert.equal(image.mediaName, "foto.png");
    assert.equal(image.body, "*Ana Admin:*\nlegenda");
    assert.equal(doc.mediaType, "application");
    assert.equal(doc.body, "planilha.csv");
    assert.match(image.mediaUrl, /^\/media\/\d+\/[^?]+\?exp=\d+&sig=[0-9a-f]{64}$/);

    const download = await fetch(server.url + image.mediaUrl);
    assert.equal(download.status, 200);
    assert.equal(download.headers.get("content-type"), "image/png");
    assert.equal(download.headers.get("x-content-type-options"), "nosniff");
    assert.deepEqual(new Uint8Array(await download.arrayBuffer()), PNG);

    const csv = await fetch(server.url + doc.mediaUrl);
    assert.match(csv.headers.get("content-disposition") ?? "", /^attachment/);
    await csv.body?.cancel();

    const page = await admin.get(`/messages/${ticketId}`);
    const listed = page.body.messages.find((m: { id: string }) => m.id === image.id);
    assert.equal(
      (await fetch(server.url + listed.mediaUrl).then((r) => r.arrayBuffer())).byteLength,
      PNG.length,
    );
  });
});

Deno.test("GET /media refuses a bad or expired signature (403) and another company's path (404)", async () => {
  await withServer(async (server) => {
    const { admin, ticketId } = await openTicket(server);
    const form = new FormData();
    form.append("medias", new File([PNG], "foto.png", { type: "image/png" }));
    const sent = await admin.post(`/messages/${ticketId}`, form);
    const url = new URL(sent.body.message.mediaUrl, server.url);
    const [, , companyId, file] = url.pathname.split("/");

    const tampered = new URL(url);
    const sig = url.searchParams.get("sig")!;
    tampered.searchParams.set("sig", (sig[0] === "0" ? "1" : "0") + sig.slice(1));
    const bad = await fetch(tampered);
    assert.equal(bad.status, 403);
    await bad.body?.cancel();

    const unsigned = await fetch(new URL(url.pathname, server.url));
    assert.equal(unsigned.status, 403);
    await unsigned.body?.cancel();

    const past = Date.now() - 48 * 3600_000;
    const expired = await fetch(
      server.url + await signMediaUrl(server.deps.secret, Number(companyId), decodeURIComponent(file), past),
    );
    assert.equal(expired.status, 403);
    await expired.body?.cancel();

    const other = await createTenant(server, "Outra Empresa");
    const moved = await fetch(`${server.url}/media/${other.companyId}/${file}${url.search}`);
    assert.equal(moved.status, 403, "a signature is bound to its company");
    await moved.body?.cancel();
    const otherPath = await signMediaUrl(server.deps.secret, other.companyId, decodeURIComponent(file));
    const missing = await fetch(server.url + otherPath);
    assert.equal(missing.status, 404, "the file is not in the other company's folder");
    await missing.body?.cancel();

    const traversal = await fetch(`${server.url}/media/${companyId}/..%2F..%2Fetc%2Fpasswd?exp=1&sig=0`);
    assert.equal(traversal.status, 404);
    await traversal.body?.cancel();
  });
});

Deno.test("forwarded media get their own file; deleteTicketMessages() removes messages, provider ids and files", async () => {
  await withServer(async (server) => {
    const companyId = server.demo!.companyId;
    const { kv } = server.deps;
    const { admin, ticketId } = await openTicket(server);
    const form = new FormData();
    form.append("medias", new File([PNG], "foto.png", { type: "image/png" }));
    const sent = await admin.post(`/messages/${ticketId}`, form);
    const original = await getMessage(kv, companyId, sent.body.message.id);

    const target = await makeContact(server, companyId);
    const fwd = await admin.post("/messages/forward/send", {
      messages: [original!.id],
      contacts: [target.id],
    });
    assert.equal(fwd.status, 200, JSON.stringify(fwd.body));
    const copyPage = await admin.get(`/messages/${fwd.body.tickets[0]}`);
    const copy = await getMessage(kv, companyId, copyPage.body.messages[0].id);
    assert.notEqual(copy?.mediaUrl, original?.mediaUrl);

    const inbound = inboundText(freshNumber(), "será apagado");
    const other = await receive(server, inbound);
    const dir = `${server.deps.config.dataDir}/company${companyId}`;
    assert.equal(await deleteTicketMessages(server.deps, companyId, ticketId), 1);
    assert.equal(await getMessage(kv, companyId, original!.id), undefined);
    await assert.rejects(Deno.stat(`${dir}/${original!.mediaUrl}`));
    assert.ok((await Deno.stat(`${dir}/${copy!.mediaUrl}`)).isFile);
    assert.equal((await admin.get(`/messages/${ticketId}`)).body.count, 0);

    await deleteTicketMessages(server.deps, companyId, other.ticketId);
    assert.equal(await findByProvider(server.deps.system, companyId, inbound.providerId), null);
    assert.equal((await kv.get(messageLogKey(companyId, other.messageId))).versionstamp, null);
  });
});
