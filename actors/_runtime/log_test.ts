import assert from "node:assert/strict";
import { createLogger, type LogLevel } from "./log.ts";

function collecting(level: LogLevel = "info") {
  const lines: Array<{ line: string; level: LogLevel }> = [];
  const logger = createLogger({ level, write: (line, l) => lines.push({ line, level: l }), now: () => Date.UTC(2025, 0, 31, 12) });
  return { lines, logger };
}

Deno.test("createLogger() writes one JSON object per line with level, time and message first", () => {
  const { lines, logger } = collecting();
  logger.info("Balcão is running", { port: 8080 });
  assert.equal(lines.length, 1);
  assert.ok(!lines[0].line.includes("\n"));
  const entry = JSON.parse(lines[0].line);
  assert.deepEqual(Object.keys(entry), ["level", "time", "message", "port"]);
  assert.deepEqual(entry, { level: "info", time: "2025-01-31T12:00:00.000Z", message: "Balcão is running", port: 8080 });
});

Deno.test("createLogger() drops lines under its level and says which levels are on", () => {
  const { lines, logger } = collecting("warn");
  logger.debug("quiet");
  logger.info("quiet too");
  logger.warn("heard");
  logger.error("heard too");
  assert.deepEqual(lines.map((l) => l.level), ["warn", "error"]);
  assert.equal(logger.enabled("info"), false);
  assert.equal(logger.enabled("error"), true);
});

Deno.test("Logger.child() adds its fields, read when each line is written", () => {
  const { lines, logger } = collecting();
  const who: { companyId?: number } = {};
  const request = logger.child({ requestId: "r-1", route: "/tickets/:ticketId" }).child(() => ({ companyId: who.companyId }));
  request.info("before auth");
  who.companyId = 7;
  request.warn("after auth", { requestId: "ignored?" });
  const [first, second] = lines.map((l) => JSON.parse(l.line));
  assert.deepEqual(first, { level: "info", time: first.time, message: "before auth", requestId: "r-1", route: "/tickets/:ticketId" });
  assert.equal(second.companyId, 7);
  // A call's own field wins over the context's, but never over level, time or message.
  assert.equal(second.requestId, "ignored?");
});

Deno.test("createLogger() writes errors with their stack and cause, bigints as text, and cuts cycles", () => {
  const { lines, logger } = collecting();
  const cyclic: Record<string, unknown> = { name: "a" };
  cyclic.self = cyclic;
  logger.error("Commit failed", {
    error: new Error("disk full", { cause: new Error("ENOSPC") }),
    stamp: 10n,
    cyclic,
    level: "debug",
    message: "not this",
  });
  const entry = JSON.parse(lines[0].line);
  assert.equal(entry.level, "error");
  assert.equal(entry.message, "Commit failed");
  assert.equal(entry.error.message, "disk full");
  assert.match(entry.error.stack, /disk full/);
  assert.equal(entry.error.cause.message, "ENOSPC");
  assert.equal(entry.stamp, "10");
  assert.equal(entry.cyclic.self, "[cycle]");
});

Deno.test("a logger whose sink throws loses the line, not the caller's work", () => {
  const logger = createLogger({ write: () => { throw new Error("closed"); } });
  logger.error("nobody hears this");
  logger.child(() => { throw new Error("no context"); }).info("nor this");
});
