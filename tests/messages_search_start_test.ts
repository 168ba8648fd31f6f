/**
 * GET /tickets?searchParam right after a start (issue #23 §1): the message index builds in the
 * background, so a search answers at once and says `partial: true` until it is built, then
 * `partial: false` with every match; lists without searchParam carry no flag. A restart loads
 * the index saved by the previous run and the messages logged since, instead of building.
 */
import assert from "node:assert/strict";
import { messageSearch } from "../actors/messages/search_index.ts";
import { messageKey } from "../actors/messages/keys.ts";
import { changeStoredMessage } from "../actors/messages/store.ts";
import { messageId } from "../domain/message.ts";
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

Deno.test("a restart loads the saved message index: complete at once, with the messages written and edited after the save", async () => {
  const dir = await Deno.makeTempDir({ prefix: "balcao-search-restart-" });
  const kvPath = `${dir}/store.kv`;
  try {
    const first = await startTestServer({ kvPath, demo: true });
    const companyId = first.demo!.companyId;
    const head: Deno.KvKey = ["search_index", companyId, "head"];
    let before: number;
    let after: number;
    let editedTicket: number;
    try {
      const edited = await receive(first, inboundText(freshNumber(), "texto original"));
      before = (await receive(first, inboundText(freshNumber(), "primeira agulha antes do save"))).ticketId;
      await waitFor(() => messageSearch(first.deps.system).ready(companyId), "the message index");
      await waitFor(async () => (await first.deps.system.kv.get(head)).value !== null, "the saved index");
      // Written through the messages actor after the save: only the search log has it for the next start.
      after = (await receive(first, inboundText(freshNumber(), "segunda agulha depois do save"))).ticketId;
      // An edit after the save: its new text is logged too.
      await changeStoredMessage(first.deps.system, companyId, edited.ticketId, edited.messageId, { type: "edit", body: "agulha editada" });
      editedTicket = edited.ticketId;
      // Written around the log into an older ticket (not the newest key): a rebuild would find it, a load cannot.
      const raw = messageId(before, Date.now(), 999);
      await first.deps.system.kv.set(messageKey(companyId, before, raw), { ticketId: before, body: "invisivel" });
    } finally {
      await first.close();
    }

    const server = await startTestServer({ kvPath, demo: false });
    try {
      await waitFor(() => messageSearch(server.deps.system).ready(companyId), "the loaded index", 5_000);
      assert.deepEqual((await messageSearch(server.deps.system).search(companyId, "invisivel")).ids, new Set(), "loaded, not rebuilt");
      const admin = await server.login("admin@demo.local");
      const found = await admin.get("/tickets?searchParam=agulha&showAll=true&status=pending");
      assert.equal(found.body.partial, false);
      assert.deepEqual(new Set(found.body.tickets.map((t: { id: number }) => t.id)), new Set([before, after, editedTicket]));
    } finally {
      await server.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
});
