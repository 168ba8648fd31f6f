import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { ActorSystem } from "../_runtime/system.ts";
import { AUDIT_RETENTION_MS } from "../../domain/audit.ts";
import { appendAudit, readAudit } from "./mod.ts";

Deno.test("appendAudit() writes entries that KV expires after the retention, ids in time order", async () => {
  const dir = await Deno.makeTempDir({ prefix: "balcao-audit-" });
  const kv = await Deno.openKv(`${dir}/a.kv`);
  const system = new ActorSystem(kv);
  try {
    const base = { companyId: 7, userId: 3, userName: "Ana", bySuper: false, detail: {} };
    const a = await appendAudit(system, { ...base, action: "setting.update", target: { kind: "setting", id: "userRating" } });
    const b = await appendAudit(system, { ...base, action: "user.update", target: { kind: "user", id: 9 } });
    assert.ok(a.id < b.id);
    const page = await readAudit(kv, 7, { pageNumber: 1 });
    assert.deepEqual(page.records.map((e) => e.id), [b.id, a.id]);
    assert.deepEqual((await readAudit(kv, 7, { pageNumber: 1, userId: 9 })).records.map((e) => e.id), [b.id]);
    assert.deepEqual((await readAudit(kv, 8, { pageNumber: 1 })).records, []);
    const db = new DatabaseSync(`${dir}/a.kv`, { readOnly: true });
    const rows = db.prepare("SELECT expiration_ms FROM kv WHERE expiration_ms > 0").all() as Array<{ expiration_ms: number }>;
    db.close();
    assert.equal(rows.length, 5, "two entries, three user-index keys");
    for (const row of rows) assert.ok(Math.abs(row.expiration_ms - (Date.now() + AUDIT_RETENTION_MS)) < 60_000);
  } finally {
    await system.close();
    kv.close();
    await system.listening.catch(() => {});
    await Deno.remove(dir, { recursive: true });
  }
});
