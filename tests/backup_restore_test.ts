/**
 * Backups of a busy server (issue #24): while customers' messages (text and images) flow in
 * through the simulator and an agent answers, `deno task backup` snapshots the server's file
 * store from another process; `deno task restore` loads it into a new store; then:
 * - the backup is a snapshot: every entry of the live store whose versionstamp is not newer
 *   than the backup's is in the backup with the same value, and no backup entry is newer;
 * - the restored store equals the backup, key by key and value by value;
 * - every write acknowledged before the backup started (messages published, replies answered)
 *   is in the restored store, and the media files of its messages are restored;
 * - a server started on the restored store logs in and lists the tickets.
 */
import assert from "node:assert/strict";
import { isDeepStrictEqual } from "node:util";
import { join } from "node:path";
import { demoConnection } from "./helpers/channels.ts";
import { type Client, startTestServer } from "./helpers/server.ts";
import { readFrames } from "../server/backup/frames.ts";
import { decodeEntry } from "../server/backup/restore.ts";
import { storedMessage } from "../actors/messages/stored.ts";

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

async function task(args: string[], env: Record<string, string>): Promise<string> {
  const out = await new Deno.Command(Deno.execPath(), { args: ["task", "-q", ...args], env, stdout: "piped", stderr: "piped" })
    .output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  assert.equal(out.code, 0, `deno task ${args.join(" ")} failed: ${text}`);
  return text.trim();
}

type Entry = { key: Deno.KvKey; value: unknown; versionstamp: string };

/** The backup's store entries, decoded (the test's own reading of the file). */
async function backupEntries(file: string): Promise<{ versionstamp: string; entries: Map<string, Entry> }> {
  const entries = new Map<string, Entry>();
  let versionstamp = "";
  const { unpack } = await import("msgpackr");
  for await (const frame of readFrames(file)) {
    if (frame.t === "header") versionstamp = frame.versionstamp;
    if (frame.t !== "chunk" || frame.kind !== "kv") continue;
    for (const record of unpack(frame.body) as Parameters<typeof decodeEntry>[0][]) {
      const { key, value } = decodeEntry(record, frame.n);
      entries.set(keyId(key), { key, value, versionstamp: record[4] });
    }
  }
  return { versionstamp, entries };
}

function keyId(key: Deno.KvKey): string {
  return JSON.stringify(key, (_k, v) => typeof v === "bigint" ? `${v}n` : v instanceof Uint8Array ? [...v] : v);
}

Deno.test("deno task backup snapshots a busy server and deno task restore brings back every key", async () => {
  const dir = await Deno.makeTempDir({ prefix: "balcao-backup-" });
  const live = { kv: join(dir, "live.kv"), data: join(dir, "media") };
  const server = await startTestServer({ kvPath: live.kv, dataDir: live.data });
  let stop = false;
  try {
    const companyId = server.demo!.companyId;
    const admin = server.client();
    const login = await admin.post("/auth/login", { email: "admin@demo.local", password: "demo1234" });
    admin.token = login.body.token;
    const adminId = login.body.user.id as number;
    const conn = await demoConnection(admin);

    // Acknowledged writes: messages whose create event was published (only after their commit).
    const acked = new Map<string, number>();
    server.deps.bus.subscribe((event) => {
      const data = event.data as { action?: string; message?: { body?: string } };
      if (event.channel === `company-${companyId}-appMessage` && data.action === "create" && data.message?.body) {
        acked.set(data.message.body, Date.now());
      }
    });
    const replies = new Map<string, number>();

    // Tickets the agent answers during the load.
    const numbers = Array.from({ length: 6 }, (_, i) => `55119${String(70000000 + i)}`);
    for (const from of numbers) await admin.post(`/simulator/${conn.id}/inbound`, { from, name: `C ${from}`, body: `open-${from}` });
    const open = await waitTickets(admin, numbers);
    for (const t of open) assert.equal((await admin.put(`/tickets/${t.id}`, { status: "open", userId: adminId })).status, 200);

    let sent = 0;
    const inbound = (async () => {
      for (let n = 0; !stop; n++) {
        const from = `55118${String(n % 40).padStart(8, "0")}`;
        const image = n % 10 === 0 ? { mediaType: "image", mediaBase64: PNG } : {};
        const r = await admin.post(`/simulator/${conn.id}/inbound`, { from, name: `L ${n % 40}`, body: `load-${n}`, ...image });
        assert.equal(r.status, 200);
        sent++;
      }
    })();
    const answering = (async () => {
      for (let n = 0; !stop; n++) {
        const ticket = open[n % open.length];
        const body = `reply-${n}`;
        const r = await admin.post(`/messages/${ticket.id}`, { body });
        assert.equal(r.status, 200, JSON.stringify(r.body));
        replies.set(body, Date.now());
      }
    })();

    await waitFor(() => acked.size > 150, "load to build up");
    const startedAt = Date.now();
    const ackedBefore = [...acked.keys()].filter((b) => acked.get(b)! < startedAt);
    const repliedBefore = [...replies.keys()];
    const backupFile = join(dir, "store.backup");
    const env = { BALCAO_KV: live.kv, BALCAO_DATA: live.data };
    const printed = await task(["backup", backupFile], env);
    const during = [...acked.values()].filter((at) => at >= startedAt).length;
    console.log(printed);
    console.log(`backup: ${during} messages committed while it ran (${sent} inbound posted in all so far)`);
    assert.ok(during > 0, "writes went on during the backup");
    await new Promise((r) => setTimeout(r, 300));
    stop = true;
    await Promise.all([inbound, answering]);

    // 1. A snapshot: the live store's entries no newer than the backup are in it unchanged.
    const snapshot = await backupEntries(backupFile);
    let unchanged = 0;
    for await (const entry of server.deps.kv.list({ prefix: [] })) {
      if (entry.versionstamp > snapshot.versionstamp) continue;
      const saved = snapshot.entries.get(keyId(entry.key));
      assert.ok(saved, `live entry ${keyId(entry.key)} (${entry.versionstamp}) is missing from the backup`);
      assert.equal(saved.versionstamp, entry.versionstamp);
      assert.ok(isDeepStrictEqual(saved.value, entry.value), `entry ${keyId(entry.key)} differs`);
      unchanged++;
    }
    for (const e of snapshot.entries.values()) assert.ok(e.versionstamp <= snapshot.versionstamp, `${keyId(e.key)} is newer than the snapshot`);

    // 2. Restore into a new store and compare every key.
    const restored = { kv: join(dir, "restored", "store.kv"), data: join(dir, "restored", "media") };
    console.log(await task(["restore", backupFile, "--kv", restored.kv, "--data", restored.data], {}));
    const kv = await Deno.openKv(restored.kv);
    let compared = 0;
    const bodies = new Set<string>();
    const mediaNames = new Set<string>();
    try {
      const seen = new Set<string>();
      for await (const entry of kv.list({ prefix: [] })) {
        const id = keyId(entry.key);
        const saved = snapshot.entries.get(id);
        assert.ok(saved, `restored ${id} is not in the backup`);
        assert.ok(isDeepStrictEqual(entry.value, saved.value), `restored ${id} differs from the backup`);
        seen.add(id);
        compared++;
        if (entry.key[0] === "message" && entry.key[1] === companyId) {
          const m = storedMessage(entry.value);
          if (m.body) bodies.add(m.body);
          if (m.mediaUrl) mediaNames.add(m.mediaUrl);
        }
      }
      for (const id of snapshot.entries.keys()) assert.ok(seen.has(id), `backup entry ${id} was not restored`);
    } finally {
      kv.close();
    }
    console.log(
      `backup: ${compared} keys compared (restored = backup), ${unchanged} live keys unchanged since the snapshot found in it; ` +
        `${ackedBefore.length} messages and ${repliedBefore.length} replies acknowledged before the backup started`,
    );

    // 3. Acknowledged before the backup started: all there, with their media files.
    for (const body of ackedBefore) assert.ok(bodies.has(body), `acknowledged ${body} is missing`);
    // Replies are stored signed with the agent's name ("*Admin:*\nreply-3").
    const replyBodies = new Set([...bodies].map((b) => b.split("\n").pop()!));
    for (const body of repliedBefore) assert.ok(replyBodies.has(body), `acknowledged ${body} is missing`);
    assert.ok(mediaNames.size > 0, "some restored messages carry media");
    for (const name of mediaNames) {
      const file = join(restored.data, `company${companyId}`, name.split("/").pop()!.split("?")[0]);
      const original = join(live.data, `company${companyId}`, name.split("/").pop()!.split("?")[0]);
      assert.deepEqual(await Deno.readFile(file), await Deno.readFile(original), `media ${name}`);
    }

    // 4. A server on the restored store serves the data.
    const copy = await startTestServer({ kvPath: restored.kv, dataDir: restored.data, demo: "auto" });
    try {
      assert.equal(copy.demo, undefined, "the restored store is not seeded again");
      const again = await copy.login("admin@demo.local");
      const list = await again.get("/tickets?showAll=true&status=open&limit=100");
      assert.equal(list.status, 200);
      const ids = new Set((list.body.tickets as { id: number }[]).map((t) => t.id));
      for (const t of open) assert.ok(ids.has(t.id), `ticket ${t.id} is listed by the restored server`);
      const messages = await again.get(`/messages/${open[0].id}`);
      assert.equal(messages.status, 200);
      assert.ok((messages.body.messages as { body: string }[]).some((m) => m.body.includes("reply-")));
    } finally {
      await copy.close();
    }
  } finally {
    stop = true;
    await server.close();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
});

async function waitFor(probe: () => boolean, what: string, ms = 30_000): Promise<void> {
  const until = Date.now() + ms;
  while (!probe()) {
    if (Date.now() > until) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function waitTickets(admin: Client, numbers: string[]): Promise<{ id: number }[]> {
  const until = Date.now() + 20_000;
  while (Date.now() < until) {
    const list = (await admin.get("/tickets?status=pending&showAll=true&limit=1000")).body.tickets as {
      id: number;
      contact: { number: string };
    }[];
    const found = numbers.map((n) => list.find((t) => t.contact.number === n));
    if (found.every(Boolean)) return found as { id: number }[];
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("Timed out waiting for the tickets");
}
