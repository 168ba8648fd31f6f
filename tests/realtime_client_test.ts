/** The client rule of domain/realtime.ts (SeqTracker) against a real server. */
import assert from "node:assert/strict";
import { SeqTracker } from "../domain/realtime.ts";
import { withServer } from "./helpers/server.ts";
import { markerEvent, SocketPool } from "./helpers/ws.ts";

Deno.test("SeqTracker resumes across reconnects without losing or repeating events", async () => {
  await withServer(async (server) => {
    const pool = new SocketPool(server.url);
    try {
      const D = server.demo!.companyId;
      const token = (await server.login("admin@demo.local")).token!;
      const tracker = new SeqTracker();
      const seen: string[] = [];
      const follow = async (tag: string) => {
        const ws = pool.open({ token, lastSeq: tracker.connecting() });
        await ws.until((f) => "channel" in f && (f.data as { tag?: string }).tag === tag);
        for (const frame of ws.frames) {
          assert.equal(tracker.accept(frame), undefined);
          if ("channel" in frame && frame.channel.endsWith("-test-marker")) seen.push((frame.data as { tag: string }).tag);
        }
        await ws.close();
      };
      server.deps.bus.publish(markerEvent(D, "never-seen"));
      const first = pool.open({ token, lastSeq: tracker.connecting() });
      assert.equal(tracker.lastSeq, undefined);
      const hello = await first.hello();
      tracker.accept(hello);
      assert.equal(tracker.lastSeq, hello.seq);
      await first.close();
      for (let round = 0; round < 3; round++) {
        server.deps.bus.publish(markerEvent(D, `r${round}-a`));
        server.deps.bus.publish(markerEvent(D, `r${round}-b`));
        await follow(`r${round}-b`);
      }
      assert.deepEqual(seen, ["r0-a", "r0-b", "r1-a", "r1-b", "r2-a", "r2-b"]);
    } finally {
      await pool.closeAll();
    }
  });
});

Deno.test("SeqTracker asks for a refetch on resync and starts over from its seq", () => {
  const tracker = new SeqTracker();
  tracker.connecting();
  tracker.accept({ type: "hello", seq: 10, userId: 1, companyId: 1 });
  tracker.accept({ channel: "company-1-ticket", seq: 12, data: {} });
  assert.equal(tracker.connecting(), 12);
  tracker.accept({ type: "hello", seq: 50, userId: 1, companyId: 1 });
  tracker.accept({ type: "ping", seq: 55 });
  assert.equal(tracker.lastSeq, 12, "hello and ping wait while resuming");
  assert.equal(tracker.accept({ type: "resync", seq: 50 }), "resync");
  assert.equal(tracker.lastSeq, 50);
  tracker.accept({ type: "ping", seq: 55 });
  assert.equal(tracker.lastSeq, 55);
});
