/**
 * A server-rendered page resumes its live events from the moment it was rendered (Hub.
 * resumePoint, the document's `live-seq` meta, SeqTracker.seed): an event published while
 * the page loads, before its socket's hello, is replayed to that socket instead of lost.
 */
import assert from "node:assert/strict";
import { type Client, withServer } from "./helpers/server.ts";
import { isEvent, SocketPool } from "./helpers/ws.ts";

/** The `live-seq` the page at `path` was rendered at, or undefined. */
async function pageLiveSeq(client: Client, path: string): Promise<number | undefined> {
  const headers: Record<string, string> = { accept: "text/html" };
  if (client.cookie) headers.cookie = client.cookie;
  const html = await (await fetch(client.baseUrl + path, { headers })).text();
  const content = html.match(/<meta name="live-seq" content="(\d+)">/)?.[1];
  return content === undefined ? undefined : Number(content);
}

Deno.test("an event published between a page's render and its socket reaches the socket that resumes from the page", async () => {
  await withServer(async (server) => {
    const pool = new SocketPool(server.url);
    try {
      const admin = await server.login("admin@demo.local");
      const channel = `company-${server.demo!.companyId}-tag`;
      // No socket of the company has connected yet: the render itself opens its room.
      const seq = await pageLiveSeq(admin, "/tags");
      assert.ok(seq !== undefined && Number.isSafeInteger(seq), "the page carries its live-seq");
      assert.equal((await admin.post("/tags", { name: "Criada enquanto a página carregava" })).status, 200);

      const fresh = await pool.connect(admin.token!);
      const resumed = await pool.connect(admin.token!, { lastSeq: seq });
      const replayed = await resumed.event(channel, (d) => (d.tag as { name?: string })?.name === "Criada enquanto a página carregava");
      assert.equal(replayed.channel, channel);
      const done = await resumed.control("resumed");
      assert.ok(done.count >= 1, "the replay counts the tag's event");
      assert.ok(
        !fresh.frames.some((f) => isEvent(f) && f.channel === channel),
        "a socket without the page's seq starts at the live edge and never sees it",
      );

      // The next render is read later: it resumes after that event, not before it.
      const later = await pageLiveSeq(admin, "/tags");
      assert.ok(later! > seq!, "a later render starts after the events already published");
    } finally {
      await pool.closeAll();
    }
  });
});

Deno.test("a page rendered without a viewer carries no live-seq", async () => {
  await withServer(async (server) => {
    assert.equal(await pageLiveSeq(server.client(), "/tags"), undefined);
    assert.equal(await pageLiveSeq(server.client(), "/login"), undefined);
  });
});
