/**
 * GET /tickets?searchParam right after a start (issue #23 §1): the message index builds in the
 * background, so a search answers at once and says `partial: true` until it is built, then
 * `partial: false` with every match; lists without searchParam carry no flag.
 */
import assert from "node:assert/strict";
import { messageSearch } from "../actors/messages/search_index.ts";
import { waitFor } from "../actors/_runtime/testing.ts";
import { startTestServer } from "./helpers/server.ts";
import { freshNumber, inboundText, receive } from "./helpers/messages.ts";
import { seedFiller } from "./helpers/search_filler.ts";

Deno.test("a search right after a start answers while the index builds, flagged partial, then complete", async () => {
  const dir = await Deno.makeTempDir({ prefix: "balcao-search-start-" });
  const kvPath = `${dir}/store.kv`;
  try {
    const first = await startTestServer({ kvPath, demo: true });
    const companyId = first.demo!.companyId;
    let needle: number;
    try {
      needle = (await receive(first, inboundText(freshNumber(), "achei uma agulha no palheiro"))).ticketId;
      // Newer tickets than the needle's, so the pass (newest first) reads them first.
      await seedFiller(first.deps.system.kv, companyId, needle + 1000, 800, 100);
    } finally {
      await first.close();
    }

    const server = await startTestServer({ kvPath, demo: false });
    try {
      const admin = await server.login("admin@demo.local");
      const path = "/tickets?searchParam=agulha&showAll=true&status=pending";
      const started = performance.now();
      const early = await admin.get(path);
      const tookMs = performance.now() - started;
      assert.equal(early.status, 200, JSON.stringify(early.body));
      assert.equal(early.body.partial, true, "the index of 80,000 messages was still building");
      assert.equal(messageSearch(server.deps.system).ready(companyId), false);
      console.log(`  search during the build: ${tookMs.toFixed(1)} ms over HTTP, ${early.body.count} found`);

      await waitFor(() => messageSearch(server.deps.system).ready(companyId), "the message index", 120_000);
      const built = await admin.get(path);
      assert.equal(built.body.partial, false);
      assert.deepEqual(built.body.tickets.map((t: { id: number }) => t.id), [needle]);

      const plain = await admin.get("/tickets?showAll=true&status=pending");
      assert.equal(plain.status, 200);
      assert.equal("partial" in plain.body, false);
    } finally {
      await server.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
});
