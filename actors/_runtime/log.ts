/**
 * Structured logs (issue #40): one JSON object per line, `{"level","time","message",…fields}`,
 * the form log collectors (Loki, CloudWatch, Elastic, `docker logs | jq`) read without a
 * parsing rule. Debug and info lines go to stdout, warn and error lines to stderr, as the
 * `console.*` calls they replaced did (a parent reading one stream sees what it saw before).
 *
 * It lives in the kernel's folder so that `actors/` and `domain/`-free helpers can log without
 * importing `server/`; it holds no business state. `log` is the process's logger (level from
 * `BALCAO_LOG_LEVEL`: debug, info, warn or error; info by default); a server's request logs
 * are its children carrying the request's id, company and route (server/http/request_log.ts).
 *
 * A logger never throws: a value JSON cannot hold (a cycle, a bigint) is written as text, and
 * a closed stdout loses the line rather than the caller's work.
 */

export type LogLevel = "debug" | "info" | "warn" | "error";

/** Extra fields of one line; an `error` field that is an Error is written with its stack. */
export type LogFields = Record<string, unknown>;

/** What every part of the server logs through. */
export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  /** A logger whose lines also carry `fields` (or what `fields()` returns when each is written). */
  child(fields: LogFields | (() => LogFields)): Logger;
  /** Whether a line of `level` would be written (skip building costly fields otherwise). */
  enabled(level: LogLevel): boolean;
}

/** How a logger is made; the defaults are the process's own. */
export interface LoggerOptions {
  level?: LogLevel;
  /** Where a finished line goes (without its newline); tests collect lines here. */
  write?: (line: string, level: LogLevel) => void;
  /** Clock of the `time` field. */
  now?: () => number;
}

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** Whether `value` names a level. */
export function isLogLevel(value: unknown): value is LogLevel {
  return typeof value === "string" && Object.hasOwn(RANK, value);
}

const encoder = new TextEncoder();

/** Writes all of `bytes` (a pipe may take part of them per call); a closed stream drops them. */
function writeAll(file: { writeSync(p: Uint8Array): number }, bytes: Uint8Array): void {
  try {
    for (let offset = 0; offset < bytes.length;) offset += file.writeSync(bytes.subarray(offset));
  } catch {
    // stdout or stderr is gone (the parent closed its pipe): nothing left to tell.
  }
}

/** The process's sink: debug and info to stdout, warn and error to stderr. */
function writeStd(line: string, level: LogLevel): void {
  writeAll(RANK[level] >= RANK.warn ? Deno.stderr : Deno.stdout, encoder.encode(line + "\n"));
}

/** An Error as plain fields (its cause too, a few levels deep). */
function errorFields(error: Error, depth = 0): Record<string, unknown> {
  const out: Record<string, unknown> = { name: error.name, message: error.message };
  if (error.stack) out.stack = error.stack;
  const code = (error as { code?: unknown }).code;
  if (code !== undefined) out.code = code;
  if (error.cause !== undefined && depth < 3) {
    out.cause = error.cause instanceof Error ? errorFields(error.cause, depth + 1) : error.cause;
  }
  return out;
}

/** JSON.stringify's replacer: Errors with their stack, bigints as text, cycles cut. */
function replacer(): (key: string, value: unknown) => unknown {
  const seen = new WeakSet<object>();
  return (_key, value) => {
    if (typeof value === "bigint") return value.toString();
    if (value instanceof Error) return errorFields(value);
    if (value instanceof Uint8Array) return `bytes:${value.byteLength}`;
    if (typeof value === "object" && value !== null) {
      if (seen.has(value)) return "[cycle]";
      seen.add(value);
    }
    return value;
  };
}

/** One line's text: the fixed keys first, then the context's fields, then the call's. */
export function formatLine(level: LogLevel, time: number, message: string, base: LogFields | undefined, fields: LogFields | undefined): string {
  const entry: Record<string, unknown> = { level, time: new Date(time).toISOString(), message };
  if (base) for (const key in base) if (!(key in entry) && base[key] !== undefined) entry[key] = base[key];
  if (fields) for (const key in fields) if (key !== "level" && key !== "time" && key !== "message" && fields[key] !== undefined) entry[key] = fields[key];
  try {
    return JSON.stringify(entry, replacer());
  } catch (error) {
    return JSON.stringify({ level, time: entry.time, message, logError: String(error) });
  }
}

class JsonLogger implements Logger {
  readonly #level: LogLevel;
  readonly #min: number;
  readonly #write: (line: string, level: LogLevel) => void;
  readonly #now: () => number;
  readonly #base: Array<LogFields | (() => LogFields)>;

  constructor(options: Required<LoggerOptions>, base: Array<LogFields | (() => LogFields)> = []) {
    this.#level = options.level;
    this.#min = RANK[options.level];
    this.#write = options.write;
    this.#now = options.now;
    this.#base = base;
  }

  enabled(level: LogLevel): boolean {
    return RANK[level] >= this.#min;
  }

  debug(message: string, fields?: LogFields): void {
    this.#line("debug", message, fields);
  }

  info(message: string, fields?: LogFields): void {
    this.#line("info", message, fields);
  }

  warn(message: string, fields?: LogFields): void {
    this.#line("warn", message, fields);
  }

  error(message: string, fields?: LogFields): void {
    this.#line("error", message, fields);
  }

  child(fields: LogFields | (() => LogFields)): Logger {
    return new JsonLogger({ level: this.#level, write: this.#write, now: this.#now }, [...this.#base, fields]);
  }

  #line(level: LogLevel, message: string, fields: LogFields | undefined): void {
    if (RANK[level] < this.#min) return;
    let base: LogFields | undefined;
    if (this.#base.length > 0) {
      base = {};
      for (const part of this.#base) {
        try {
          Object.assign(base, typeof part === "function" ? part() : part);
        } catch { /* a context that cannot say more: the line goes out without it */ }
      }
    }
    try {
      this.#write(formatLine(level, this.#now(), message, base, fields), level);
    } catch { /* a sink that fails loses its line, never the caller's work */ }
  }
}

/** A logger with its own level and sink (tests collect lines; see LoggerOptions). */
export function createLogger(options: LoggerOptions = {}): Logger {
  return new JsonLogger({ level: options.level ?? "info", write: options.write ?? writeStd, now: options.now ?? Date.now });
}

/** BALCAO_LOG_LEVEL, or info when unset, unreadable or not a level. */
function envLevel(): LogLevel {
  try {
    const value = Deno.env.get("BALCAO_LOG_LEVEL")?.trim().toLowerCase();
    return isLogLevel(value) ? value : "info";
  } catch {
    return "info";
  }
}

/** The process's logger: JSON lines on stdout and stderr (see the module doc). */
export const log: Logger = createLogger({ level: envLevel() });
