/**
 * Request body limits (server/http/body_limit.ts, issue #24): a JSON body over 1 MB answers 413
 * in the catalogue's shape and changes nothing, with or without content-length; the simulated
 * phone's media JSON and multipart uploads keep their larger limits.
 */
import assert from "node:assert/strict";
import { withServer } from "./helpers/server.ts";

Deno.test("a JSON body over 1 MB is refused with 413 before any handler reads it; media routes keep room", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const tags = (await admin.get("/tags")).body as { tags: Array<{ id: number; name: string }> };
    const tag = tags.tags[0];
    const huge = JSON.stringify({ name: tag.name, junk: "a".repeat(5 * 1024 * 1024) });
    const headers = { "content-type": "application/json", authorization: `Bearer ${admin.token}` };

    const put = await fetch(`${server.url}/tags/${tag.id}`, { method: "PUT", headers, body: huge });
    assert.equal(put.status, 413);
    const body = await put.json();
    assert.equal(body.error, "ERR_VALIDATION");
    assert.match(body.message, /over 1 MB/);

    // Streamed, with no content-length: stopped at the limit all the same.
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(huge));
        controller.close();
      },
    });
    const streamed = await fetch(`${server.url}/tags/${tag.id}`, { method: "PUT", headers, body: stream });
    assert.equal(streamed.status, 413);
    await streamed.body?.cancel();

    // A normal body still works, and the refused ones changed nothing.
    const ok = await admin.put(`/tags/${tag.id}`, { name: tag.name });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));

    // The simulator's JSON may carry a 2 MB image in base64.
    const conn = ((await admin.get("/whatsapp")).body as Array<{ id: number; provider: string }>).find((w) => w.provider === "simulator")!;
    const png = btoa(Array.from(new Uint8Array(2 * 1024 * 1024), (_, i) => String.fromCharCode(i % 251)).join(""));
    const media = await admin.post(`/simulator/${conn.id}/inbound`, { from: "5511966665555", name: "Grande", body: "", mediaType: "image", mediaBase64: png });
    assert.notEqual(media.status, 413, JSON.stringify(media.body).slice(0, 200));
  });
});
