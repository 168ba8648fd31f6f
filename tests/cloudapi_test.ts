/**
 * The WhatsApp Cloud API channel (issue #22) against a fake Graph API on loopback: a company
 * connects an official number through the API, Meta's webhook verification, signed inbound
 * deliveries (text, media, reactions, statuses), replies from the inbox, the 24-hour window
 * and templates, and the credentials kept out of every read and live event.
 */
import assert from "node:assert/strict";
import type { BusEvent } from "../domain/events.ts";
import { demoConnection, eventually, nextEvent } from "./helpers/channels.ts";
import { notification, status, textMessage } from "./helpers/fake_graph.ts";
import { accept, APP_SECRET, createCloud, deliver, messagesOf, ticketOf, VERIFY_TOKEN, withGraph } from "./helpers/cloudapi.ts";
import { createTenant } from "./helpers/tenants.ts";

Deno.test("Cloud API: a company connects an official number through the API; verification; credentials stay hidden", async () => {
  await withGraph(async (server, graph) => {
    const events: BusEvent[] = [];
    const stop = server.deps.bus.subscribe((e) => void events.push(e));
    try {
      const admin = await server.login("admin@demo.local");

      const incomplete = await admin.post("/whatsapp", { name: "Sem dados", provider: "cloudapi", cloudPhoneNumberId: "12" });
      assert.equal(incomplete.status, 400);
      assert.equal(incomplete.body.error, "ERR_VALIDATION");
      assert.deepEqual(Object.keys(incomplete.body.fields).sort(), ["cloudAccessToken", "cloudAppSecret", "cloudWabaId"]);
      const letters = await admin.post("/whatsapp", { name: "Letras", provider: "cloudapi", cloudPhoneNumberId: "abc" });
      assert.equal(letters.body.fields.cloudPhoneNumberId, "Digits only");

      // Credentials Meta refuses are named on their field before anything is saved.
      const badToken = await createCloud(admin, graph, { cloudAccessToken: "EAAG-wrong" });
      assert.equal(badToken.status, 400);
      assert.match(badToken.body.fields.cloudAccessToken, /^Refused by the Graph API: Invalid OAuth access token/);
      const badPhone = await createCloud(admin, graph, { cloudPhoneNumberId: "999000" });
      assert.equal(badPhone.status, 400);
      assert.match(badPhone.body.fields.cloudPhoneNumberId, /^Unknown to the Graph API: .*does not exist/);
      assert.ok(!(await admin.get("/whatsapp")).body.some((w: { provider: string }) => w.provider === "cloudapi"), "nothing was saved");

      const created = await createCloud(admin, graph);
      assert.equal(created.status, 200, JSON.stringify(created.body));
      const id = created.body.id;
      assert.equal(created.body.provider, "cloudapi");
      assert.equal(created.body.status, "CONNECTED");
      assert.equal(created.body.number, "5511955550000");
      const check = graph.calls.findLast((c) => c.path === `/v21.0/${graph.phoneNumberId}`)!;
      assert.equal(check.method, "GET");
      assert.equal(check.authorization, `Bearer ${graph.accessToken}`);

      // Meta's verification handshake.
      const verify = (token: string, mode = "subscribe") =>
        fetch(`${server.url}/webhooks/cloudapi/${id}?hub.mode=${mode}&hub.verify_token=${encodeURIComponent(token)}&hub.challenge=1158201444`)
          .then(async (r) => ({ status: r.status, text: await r.text() }));
      assert.deepEqual(await verify(VERIFY_TOKEN), { status: 200, text: "1158201444" });
      assert.equal((await verify("wrong-token")).status, 403);
      assert.equal((await verify(VERIFY_TOKEN, "unsubscribe")).status, 403);
      assert.equal((await fetch(`${server.url}/webhooks/cloudapi/99999?hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=1`).then(async (r) => (await r.body?.cancel(), r.status))), 403);

      // The secrets never come back: not to the admin (write-only), nothing to an agent.
      const asAdmin = (await admin.get(`/whatsapp/${id}`)).body;
      assert.equal(asAdmin.cloudAccessToken, "");
      assert.equal(asAdmin.cloudAppSecret, "");
      assert.equal(asAdmin.cloudVerifyToken, VERIFY_TOKEN);
      assert.equal(asAdmin.cloudPhoneNumberId, graph.phoneNumberId);
      const agent = await server.login("agent@demo.local");
      const listed = (await agent.get("/whatsapp")).body.find((w: { id: number }) => w.id === id);
      assert.equal(listed.cloudAccessToken, "");
      assert.equal(listed.cloudAppSecret, "");
      assert.equal(listed.cloudVerifyToken, "");
      assert.equal(listed.token, "");
      for (const text of [JSON.stringify((await admin.get("/whatsapp")).body), JSON.stringify((await agent.get(`/whatsapp/${id}`)).body)]) {
        assert.ok(!text.includes(graph.accessToken) && !text.includes(APP_SECRET));
      }

      // A save with the secrets left blank keeps them (the edit form never has them).
      const renamed = await admin.put(`/whatsapp/${id}`, { ...asAdmin, name: "Oficial", queueIds: [], cloudAccessToken: "", cloudAppSecret: "" });
      assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
      assert.equal(renamed.body.status, "CONNECTED");
      assert.equal(graph.calls.at(-1)!.authorization, `Bearer ${graph.accessToken}`);

      // A token Meta refuses: DISCONNECTED, with Graph's reason logged; a new token connects again.
      graph.state.accessToken = "EAAG-rotated";
      assert.equal((await admin.post(`/whatsappsession/${id}`)).status, 200);
      assert.equal((await admin.get(`/whatsapp/${id}`)).body.status, "DISCONNECTED");
      const refused = await admin.put(`/whatsapp/${id}`, { ...asAdmin, name: "Oficial", queueIds: [], cloudAccessToken: "EAAG-typo", cloudAppSecret: "" });
      assert.equal(refused.status, 400);
      assert.ok(refused.body.fields.cloudAccessToken);
      const again = await admin.put(`/whatsapp/${id}`, { ...asAdmin, name: "Oficial", queueIds: [], cloudAccessToken: "EAAG-rotated", cloudAppSecret: "" });
      assert.equal(again.body.status, "CONNECTED");

      // No live event carried a credential.
      const all = JSON.stringify(events);
      assert.ok(events.some((e) => e.channel.endsWith("-whatsapp")), "connection events were published");
      for (const secret of [graph.accessToken, "EAAG-rotated", APP_SECRET, VERIFY_TOKEN]) assert.ok(!all.includes(secret), `an event carried ${secret}`);
    } finally {
      stop();
    }
  });
});

Deno.test("Cloud API: signed inbound text, media, reaction and statuses; a reply from the inbox reaches the Graph API", async () => {
  await withGraph(async (server, graph) => {
    const admin = await server.login("admin@demo.local");
    const id = (await createCloud(admin, graph)).body.id;
    const ids = { phoneNumberId: graph.phoneNumberId, wabaId: graph.wabaId, displayPhoneNumber: graph.displayPhoneNumber };
    const customer = "5521988887777";
    const hello = notification(ids, { contacts: [{ wa_id: customer, name: "Maria Nuvem" }], messages: [textMessage(customer, "wamid.IN1", "olá, preciso de ajuda")] });

    // Bad signature (or another secret): 401, nothing stored.
    const forged = await deliver(server, id, hello, "not-the-secret");
    assert.equal(forged.status, 401);
    const unsigned = await fetch(`${server.url}/webhooks/cloudapi/${id}`, { method: "POST", body: JSON.stringify(hello) });
    assert.equal(unsigned.status, 401);
    await unsigned.body?.cancel();
    await new Promise((r) => setTimeout(r, 200));
    const none = (await admin.get("/tickets?showAll=true&limit=1000")).body.tickets as Array<{ contact?: { number: string } }>;
    assert.ok(!none.some((t) => t.contact?.number === customer), "a forged delivery stored nothing");

    // Signed: a ticket and a message, shown live; the same wamid again is stored once.
    const live = nextEvent(server, (e) => e.channel.endsWith("-appMessage") && JSON.stringify(e.data).includes("wamid.IN1"));
    assert.equal((await deliver(server, id, hello)).status, 200);
    await live;
    assert.equal((await deliver(server, id, hello)).status, 200);
    const ticket = await ticketOf(admin, customer);
    const first = await eventually(async () => (await messagesOf(admin, ticket.id)).find((m) => m.providerId === "wamid.IN1"), 10_000, "inbound text");
    assert.equal(first.body, "olá, preciso de ajuda");
    assert.equal(first.fromMe, false);
    await new Promise((r) => setTimeout(r, 200));
    assert.equal((await messagesOf(admin, ticket.id)).filter((m) => m.providerId === "wamid.IN1").length, 1);
    assert.equal(ticket.contact?.name, "Maria Nuvem");

    // Media: downloaded through GET /{media-id} and its url, with the bearer.
    const photo = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4]);
    graph.state.media.set("8801", { data: photo, mimetype: "image/jpeg" });
    const image = { from: customer, id: "wamid.IMG1", timestamp: String(Math.floor(Date.now() / 1000)), type: "image", image: { id: "8801", mime_type: "image/jpeg", sha256: "x", caption: "a nota" } };
    assert.equal((await deliver(server, id, notification(ids, { messages: [image] }))).status, 200);
    const stored = await eventually(async () => (await messagesOf(admin, ticket.id)).find((m) => m.providerId === "wamid.IMG1"), 10_000, "inbound image");
    assert.equal(stored.mediaType, "image");
    assert.equal(stored.body, "a nota");
    assert.ok(stored.mediaUrl, "the image was stored");
    const bytes = new Uint8Array(await (await fetch(new URL(stored.mediaUrl, server.url))).arrayBuffer());
    assert.deepEqual(bytes, photo);
    assert.ok(graph.calls.some((c) => c.path === "/v21.0/8801" && c.authorization === `Bearer ${graph.accessToken}`));
    assert.ok(graph.calls.some((c) => c.path === "/media-download/8801" && c.authorization === `Bearer ${graph.accessToken}`));

    // A reaction joins the conversation quoting the message it reacts to.
    const reaction = { from: customer, id: "wamid.R1", timestamp: String(Math.floor(Date.now() / 1000)), type: "reaction", reaction: { message_id: "wamid.IN1", emoji: "👍" } };
    await deliver(server, id, notification(ids, { messages: [reaction] }));
    const reacted = await eventually(async () => (await messagesOf(admin, ticket.id)).find((m) => m.providerId === "wamid.R1"), 10_000, "reaction");
    assert.equal(reacted.mediaType, "reactionMessage");
    assert.equal(reacted.body, "👍");
    assert.equal(reacted.quotedMsg?.id, first.id);

    // A reply from the inbox: POSTed to the fake with the Cloud API's shape; its wamid stored.
    await accept(server, admin, ticket.id);
    const reply = await admin.post(`/messages/${ticket.id}`, { body: "claro, como posso ajudar?", quotedMsg: first.id });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    const send = await eventually(() => graph.sends().find((c) => c.body?.type === "text"), 10_000, "text send");
    assert.equal(send.path, `/v21.0/${graph.phoneNumberId}/messages`);
    assert.equal(send.authorization, `Bearer ${graph.accessToken}`);
    assert.equal(send.body.messaging_product, "whatsapp");
    assert.equal(send.body.recipient_type, "individual");
    assert.equal(send.body.to, customer);
    assert.match(send.body.text.body, /claro, como posso ajudar\?/);
    assert.deepEqual(send.body.context, { message_id: "wamid.IN1" });
    const wamid = await eventually(async () => (await messagesOf(admin, ticket.id)).find((m) => m.id === reply.body.message.id && m.providerId)?.providerId, 10_000, "wamid stored");
    assert.match(wamid, /^wamid\./);

    // Statuses: sent 2, delivered 3, read 4 (acks only rise), each shown live.
    for (const [value, ack] of [["sent", 2], ["delivered", 3], ["read", 4]] as const) {
      const acked = nextEvent(server, (e) => e.channel.endsWith("-appMessage") && (e.data as { message?: { providerId?: string; ack?: number } }).message?.providerId === wamid && (e.data as { message: { ack: number } }).message.ack === ack);
      await deliver(server, id, notification(ids, { statuses: [status(wamid, value, customer)] }));
      await acked;
      await eventually(async () => (await messagesOf(admin, ticket.id)).find((m) => m.providerId === wamid && m.ack === ack), 10_000, `ack ${ack}`);
    }

    // Media reply: uploaded through POST /{phone-number-id}/media, then sent by its id.
    const form = new FormData();
    form.append("medias", new File([new TextEncoder().encode("%PDF-1.4 fake")], "proposta.pdf", { type: "application/pdf" }));
    form.append("body", "segue a proposta");
    assert.equal((await admin.post(`/messages/${ticket.id}`, form)).status, 200);
    const upload = await eventually(() => graph.calls.find((c) => c.path.endsWith("/media") && c.method === "POST"), 10_000, "media upload");
    assert.equal(upload.body.messaging_product, "whatsapp");
    assert.equal(upload.body.type, "application/pdf");
    assert.equal(upload.body.file.name, "proposta.pdf");
    const doc = await eventually(() => graph.sends().find((c) => c.body?.type === "document"), 10_000, "document send");
    assert.equal(doc.body.document.filename, "proposta.pdf");
    assert.equal(doc.body.document.caption.includes("segue a proposta"), true);
    assert.ok(graph.state.uploads.has(doc.body.document.id));
    const docWamid = await eventually(async () => (await messagesOf(admin, ticket.id)).find((m) => m.mediaType !== "image" && m.fromMe && m.mediaUrl && m.providerId)?.providerId, 10_000, "document wamid");

    // A failed status marks the message failed.
    await deliver(server, id, notification(ids, { statuses: [status(docWamid, "failed", customer)] }));
    const failed = await eventually(async () => (await messagesOf(admin, ticket.id)).find((m) => m.providerId === docWamid && m.failed), 10_000, "failed status");
    assert.equal(failed.failed.code, "ERR_SENDING_WAPP_MSG");

    // Read receipts go out as `status: read`; edits are refused (the Cloud API has none).
    await server.deps.channels.markRead(server.demo!.companyId, id, customer, ["wamid.IN1"]);
    const read = graph.sends().find((c) => c.body?.status === "read")!;
    assert.deepEqual(read.body, { messaging_product: "whatsapp", status: "read", message_id: "wamid.IN1" });
    const edit = await admin.post(`/messages/edit/${reply.body.message.id}`, { body: "editada" });
    assert.equal(edit.status, 400);
    assert.equal(edit.body.error, "ERR_FETCH_WAPP_MSG");
  });
});

Deno.test("Cloud API: free text outside the 24-hour window fails with ERR_CLOUDAPI_WINDOW_CLOSED; approved templates are listed and sent", async () => {
  await withGraph(async (server, graph) => {
    const admin = await server.login("admin@demo.local");
    const id = (await createCloud(admin, graph)).body.id;
    const ids = { phoneNumberId: graph.phoneNumberId, wabaId: graph.wabaId };
    const customer = "5531977776666";
    const longAgo = Date.now() - 25 * 3600_000;
    await deliver(server, id, notification(ids, { contacts: [{ wa_id: customer, name: "Ana" }], messages: [textMessage(customer, "wamid.OLD", "ontem", longAgo)] }));
    const ticket = await ticketOf(admin, customer);
    await accept(server, admin, ticket.id);

    const window = (await admin.get(`/messages/${ticket.id}/window`)).body;
    assert.equal(window.provider, "cloudapi");
    assert.equal(window.open, false);
    assert.equal(window.lastInboundAt, Math.floor(longAgo / 1000) * 1000);

    const text = await admin.post(`/messages/${ticket.id}`, { body: "ainda está aí?" });
    assert.equal(text.status, 200);
    const refused = await eventually(async () => (await messagesOf(admin, ticket.id)).find((m) => m.id === text.body.message.id && m.failed), 10_000, "window refusal");
    assert.equal(refused.failed.code, "ERR_CLOUDAPI_WINDOW_CLOSED");
    assert.equal(refused.providerId, null);
    assert.ok(!graph.sends().some((c) => c.body?.type === "text"), "nothing was sent to the Graph API");

    // Approved templates only, across pages.
    graph.state.templatePage = 1;
    const list = await admin.get(`/whatsapp/${id}/templates`);
    assert.equal(list.status, 200, JSON.stringify(list.body));
    assert.deepEqual(list.body.map((t: { name: string; params: number }) => [t.name, t.params]), [["hello_world", 0], ["retomar_conversa", 2]]);
    assert.ok(graph.calls.filter((c) => c.path === `/v21.0/${graph.wabaId}/message_templates`).length >= 2, "followed paging.next");
    const agent = await server.login("agent@demo.local");
    assert.equal((await agent.get(`/whatsapp/${id}/templates`)).status, 200);
    const demo = await demoConnection(admin);
    const notCloud = await admin.get(`/whatsapp/${demo.id}/templates`);
    assert.equal(notCloud.status, 400);
    assert.equal((await admin.get(`/whatsapp/99999/templates`)).status, 404);

    // Template checks, then the send (allowed outside the window).
    const wrongCount = await admin.post(`/messages/${ticket.id}/template`, { name: "retomar_conversa", language: "pt_BR", params: ["Ana"] });
    assert.equal(wrongCount.status, 400);
    assert.equal(wrongCount.body.fields.params, "Expected 2");
    const pending = await admin.post(`/messages/${ticket.id}/template`, { name: "rascunho", language: "pt_BR" });
    assert.equal(pending.status, 404);
    const blank = await admin.post(`/messages/${ticket.id}/template`, { language: "pt_BR" });
    assert.equal(blank.status, 400);
    assert.equal(blank.body.fields.name, "Required");
    const sent = await admin.post(`/messages/${ticket.id}/template`, { name: "retomar_conversa", language: "pt_BR", params: ["Ana", "42"] });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    assert.equal(sent.body.message.body, "Olá Ana, seu pedido 42 está pronto.");
    const call = await eventually(() => graph.sends().find((c) => c.body?.type === "template"), 10_000, "template send");
    assert.deepEqual(call.body, {
      messaging_product: "whatsapp",
      recipient_type: "individual",
      to: customer,
      type: "template",
      template: { name: "retomar_conversa", language: { code: "pt_BR" }, components: [{ type: "body", parameters: [{ type: "text", text: "Ana" }, { type: "text", text: "42" }] }] },
    });
    await eventually(async () => (await messagesOf(admin, ticket.id)).find((m) => m.id === sent.body.message.id && m.providerId?.startsWith("wamid.")), 10_000, "template wamid");

    // The customer answers: the window opens and free text goes out.
    await deliver(server, id, notification(ids, { messages: [textMessage(customer, "wamid.NEW", "sim, obrigado")] }));
    await eventually(async () => (await admin.get(`/messages/${ticket.id}/window`)).body.open || undefined, 10_000, "window open");
    await admin.post(`/messages/${ticket.id}`, { body: "perfeito" });
    await eventually(() => graph.sends().find((c) => c.body?.type === "text" && /perfeito/.test(c.body.text.body)), 10_000, "text inside the window");

    // Another company sees neither this ticket's window, nor sends through it, nor lists the templates.
    const other = await createTenant(server, "Outra Nuvem");
    assert.equal((await other.admin.get(`/messages/${ticket.id}/window`)).status, 404);
    assert.equal((await other.admin.post(`/messages/${ticket.id}/template`, { name: "hello_world", language: "en_US" })).status, 404);
    assert.equal((await other.admin.get(`/whatsapp/${id}/templates`)).status, 404);
  });
});
