/** Configuration from the environment, with the safe defaults of DESIGN §9. */
import type { RetryPolicy } from "../domain/webhook.ts";
import type { LoginLimits } from "./auth/login_limits.ts";
import type { PaymentApiUrls } from "./billing/providers/types.ts";
import type { PrivateAccess } from "./http/public_fetch.ts";
import { DEFAULT_DROP_GRACE_MS } from "../domain/connection_alert.ts";
import { isLogLevel, type LogLevel } from "../actors/_runtime/log.ts";

/** Meta's Graph API, at the version the Cloud API adapter was written against. */
export const DEFAULT_GRAPH_API_URL = "https://graph.facebook.com/v21.0";

export interface Config {
  port: number;
  /**
   * This process's place among several over one store (issue #35; README "Running several
   * processes"): its name (BALCAO_NODE) and the address the others forward its companies'
   * requests to (BALCAO_NODE_URL, e.g. `http://10.0.0.5:8080`). Unset: a process alone, which
   * runs every company.
   */
  node?: { name: string; url: string };
  /** Length of a company's lease, in ms (BALCAO_LEASE_MS, default 6000; server/cluster/leases.ts). */
  leaseMs: number;
  /**
   * The address the server listens on (BALCAO_HOST): loopback by default, so a machine's
   * `npm start` is its own; `0.0.0.0` (or an interface's address) to be reached from others.
   */
  hostname: string;
  /** Deno KV location: a path, `:memory:`, or an `https://` KV Connect URL. */
  kvPath: string;
  /** Folder for media files. */
  dataDir: string;
  /** Token signing secret; generated and stored in KV on first start when absent. */
  secret?: string;
  /**
   * Seed the demo tenant: true, false, or "auto" (issue #38: only on an empty store, on a
   * server that listens on loopback, with no owner configured; see demoWanted).
   */
  demo: boolean | "auto";
  /** Password of the demo's logins: BALCAO_DEMO_PASSWORD, else a random one printed at start. */
  demoPassword: string;
  /**
   * A real installation's platform owner (BALCAO_OWNER_EMAIL and BALCAO_OWNER_PASSWORD, both
   * or neither): created at a start that finds no platform owner (server/seed/owner.ts).
   */
  owner?: { email: string; password: string };
  /**
   * With the demo: give its company thirty days of activity (server/seed/history) when the
   * demo is seeded (BALCAO_DEMO_HISTORY, on unless "0"). Test servers turn it off: their
   * tests count tickets and messages from the demo's empty inbox.
   */
  demoHistory: boolean;
  /** Argon2 cost: "strong" in production; "fast" only for tests. */
  passwordHash: "strong" | "fast";
  /** Access token lifetime in seconds. */
  accessTokenTtl: number;
  /** Refresh token lifetime in seconds. */
  refreshTokenTtl: number;
  /** Replaces WhatsApp's WebSocket address for Baileys (tests: a loopback address). */
  baileysWsUrl?: string;
  /** The Graph API base of the WhatsApp Cloud API adapter, version included (tests: a local fake). */
  graphApiUrl?: string;
  /** How long a bot integration (Typebot, n8n) may take per call, in ms (tests: a short one). */
  integrationTimeoutMs?: number;
  smtp?: { host: string; port: number; user?: string; pass?: string; from: string };
  /**
   * Our public base URL (BALCAO_PUBLIC_URL, e.g. `https://balcao.example.com`, kept without a
   * trailing slash): the base of every link the server hands to someone else (payment providers'
   * return and notification URLs, Evolution's webhook). Never taken from a request's Host
   * header, which the caller writes; unset, such links are not built (the demo's simulated
   * payment page then gets a path on the same origin).
   */
  publicUrl?: string;
  /**
   * Outbound webhook subscriptions may call private and loopback addresses
   * (BALCAO_WEBHOOK_ALLOW_PRIVATE=1): off in production, on in tests and closed networks.
   */
  webhookAllowPrivate?: boolean;
  /**
   * Link previews (GET /messages/metadados) may fetch private and loopback addresses on any
   * port (BALCAO_PREVIEW_ALLOW_PRIVATE=1): off in production, on in tests and closed networks.
   */
  linkPreviewAllowPrivate?: boolean;
  /**
   * Integration URLs a tenant sets (urlN8N, urlTypebot, urlBotTypebot, the AI module's
   * endpoint, n8n URLs of queues and bot options) may reach private hosts
   * (BALCAO_INTEGRATION_ALLOW_PRIVATE): `1` lets every private host through, a comma-separated
   * list only those hosts (`n8n.internal,10.0.0.5:5678`); unset, none (server/http/public_fetch.ts).
   */
  integrationAllowPrivate: PrivateAccess;
  /** Overrides of the outbound webhooks' retry schedule (domain/webhook.ts DEFAULT_RETRY; tests shorten it). */
  webhookRetry?: Partial<RetryPolicy>;
  /**
   * A TLS-terminating reverse proxy sets X-Forwarded-Proto (BALCAO_TRUST_PROXY=1): only then is
   * that header believed, for HSTS and Secure cookies (server/http/transport.ts).
   */
  trustProxy: boolean;
  /** Overrides of the login limits (server/auth/login_limits.ts LOGIN_LIMITS; tests shorten the delays). */
  loginLimits?: Partial<LoginLimits>;
  /**
   * Length in ms of one minute of the tickets' automatic intervals (auto-close, auto-move,
   * router). 60,000; only tests shorten it (BALCAO_TIMER_MINUTE_MS), to see a 5-minute rule fire.
   */
  timerMinuteMs: number;
  /**
   * Test hook, never set from the environment: wraps the opened store (tests make it refuse
   * writes as a full disk does, actors/_runtime/testing.ts refusingKv).
   */
  wrapKv?: (kv: Deno.Kv) => Deno.Kv;
  /**
   * Multiplies every campaign interval (messageInterval, greaterInterval). 1; only tests and
   * the bench shorten it (BALCAO_CAMPAIGN_TIME_SCALE, 0 = no campaign pauses).
   */
  campaignTimeScale?: number;
  /**
   * Payment providers' API bases (BALCAO_STRIPE_API_URL, _ASAAS_, _MERCADOPAGO_, _EFI_; tests:
   * local fakes). A missing one is the real host (server/billing/providers/mod.ts).
   */
  paymentApiUrls?: Partial<PaymentApiUrls>;
  /** How long a payment provider may take per call, in ms (default 10 s; tests shorten it). */
  paymentTimeoutMs?: number;
  /**
   * Tickets (or contacts) a company needs before they are kept as a snapshot that a start
   * loads instead of every record (actors/_runtime/record_snapshot.ts). 50,000
   * (BALCAO_SNAPSHOT_MIN); below it a start lists the records in well under a second.
   */
  snapshotMinRecords?: number;
  /**
   * Bearer token of `GET /metrics` (BALCAO_METRICS_TOKEN): the Prometheus scrape answers only
   * to it; unset, the endpoint does not exist (server/metrics/route.ts).
   */
  metricsToken?: string;
  /**
   * How long a connection may stay away from CONNECTED before its company's admins are told
   * (BALCAO_SESSION_DROP_GRACE, in seconds; 300 by default; domain/connection_alert.ts).
   */
  sessionDropGraceMs: number;
  /**
   * Test hook, never set from the environment: where this server's structured log lines go
   * (actors/_runtime/log.ts); unset, the process's stdout and stderr.
   */
  logWrite?: (line: string) => void;
  /** Lowest level logged (BALCAO_LOG_LEVEL: debug, info, warn, error; info by default). */
  logLevel?: LogLevel;
}

/** Reads the configuration from `env` (defaults to the process environment). */
export function loadConfig(env: Record<string, string | undefined> = Deno.env.toObject()): Config {
  const demo = env.BALCAO_DEMO;
  return {
    port: Number(env.PORT ?? 8080),
    node: env.BALCAO_NODE
      ? { name: env.BALCAO_NODE, url: (env.BALCAO_NODE_URL || `http://127.0.0.1:${env.PORT ?? 8080}`).replace(/\/+$/, "") }
      : undefined,
    leaseMs: Number(env.BALCAO_LEASE_MS) > 0 ? Number(env.BALCAO_LEASE_MS) : 6000,
    hostname: env.BALCAO_HOST || "127.0.0.1",
    kvPath: env.BALCAO_KV ?? "./data/balcao.kv",
    dataDir: env.BALCAO_DATA ?? "./data/media",
    secret: env.BALCAO_SECRET || undefined,
    demo: demo === undefined || demo === "" ? "auto" : demo === "1" || demo === "true",
    demoPassword: env.BALCAO_DEMO_PASSWORD || randomPassword(),
    owner: ownerOf(env.BALCAO_OWNER_EMAIL, env.BALCAO_OWNER_PASSWORD),
    demoHistory: env.BALCAO_DEMO_HISTORY !== "0" && env.BALCAO_DEMO_HISTORY !== "false",
    passwordHash: env.BALCAO_PASSWORD_HASH === "fast" ? "fast" : "strong",
    accessTokenTtl: Number(env.BALCAO_ACCESS_TTL ?? 15 * 60),
    refreshTokenTtl: Number(env.BALCAO_REFRESH_TTL ?? 7 * 24 * 3600),
    baileysWsUrl: env.BALCAO_BAILEYS_WS_URL || undefined,
    graphApiUrl: env.BALCAO_GRAPH_API_URL || DEFAULT_GRAPH_API_URL,
    timerMinuteMs: Number(env.BALCAO_TIMER_MINUTE_MS) > 0 ? Number(env.BALCAO_TIMER_MINUTE_MS) : 60_000,
    snapshotMinRecords: Number(env.BALCAO_SNAPSHOT_MIN) > 0 ? Number(env.BALCAO_SNAPSHOT_MIN) : undefined,
    campaignTimeScale: Number(env.BALCAO_CAMPAIGN_TIME_SCALE) >= 0 && env.BALCAO_CAMPAIGN_TIME_SCALE ? Number(env.BALCAO_CAMPAIGN_TIME_SCALE) : 1,
    integrationTimeoutMs: env.BALCAO_INTEGRATION_TIMEOUT_MS ? Number(env.BALCAO_INTEGRATION_TIMEOUT_MS) : undefined,
    paymentApiUrls: {
      stripe: env.BALCAO_STRIPE_API_URL || undefined,
      asaas: env.BALCAO_ASAAS_API_URL || undefined,
      mercadopago: env.BALCAO_MERCADOPAGO_API_URL || undefined,
      efi: env.BALCAO_EFI_API_URL || undefined,
    },
    publicUrl: publicOrigin(env.BALCAO_PUBLIC_URL),
    integrationAllowPrivate: privateAccess(env.BALCAO_INTEGRATION_ALLOW_PRIVATE),
    webhookAllowPrivate: env.BALCAO_WEBHOOK_ALLOW_PRIVATE === "1" || env.BALCAO_WEBHOOK_ALLOW_PRIVATE === "true",
    linkPreviewAllowPrivate: env.BALCAO_PREVIEW_ALLOW_PRIVATE === "1" || env.BALCAO_PREVIEW_ALLOW_PRIVATE === "true",
    trustProxy: env.BALCAO_TRUST_PROXY === "1" || env.BALCAO_TRUST_PROXY === "true",
    metricsToken: env.BALCAO_METRICS_TOKEN?.trim() || undefined,
    logLevel: isLogLevel(env.BALCAO_LOG_LEVEL?.trim().toLowerCase()) ? env.BALCAO_LOG_LEVEL!.trim().toLowerCase() as LogLevel : undefined,
    sessionDropGraceMs: Number(env.BALCAO_SESSION_DROP_GRACE) > 0 ? Number(env.BALCAO_SESSION_DROP_GRACE) * 1000 : DEFAULT_DROP_GRACE_MS,
    smtp: env.SMTP_HOST
      ? {
        host: env.SMTP_HOST,
        port: Number(env.SMTP_PORT ?? 587),
        user: env.SMTP_USER,
        pass: env.SMTP_PASS,
        from: env.SMTP_FROM ?? "no-reply@balcao.local",
      }
      : undefined,
  };
}

/** An http(s) URL without its trailing slashes, or undefined; a bad value stops the start. */
export function publicOrigin(value: string | undefined): string | undefined {
  if (!value) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`BALCAO_PUBLIC_URL is not a URL: ${value}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error(`BALCAO_PUBLIC_URL must be http(s): ${value}`);
  return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
}

/** BALCAO_INTEGRATION_ALLOW_PRIVATE: `1`/`true` every private host, `0`/unset none, else a list of hosts. */
export function privateAccess(value: string | undefined): PrivateAccess {
  const text = (value ?? "").trim();
  if (text === "" || text === "0" || text === "false") return false;
  if (text === "1" || text === "true") return true;
  return text.split(",").map((host) => host.trim()).filter(Boolean);
}

/** Whether `hostname` is a loopback address: only this machine can reach a server bound to it. */
export function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return host === "localhost" || host === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/**
 * Whether this start seeds the demo (issue #38). Asked (true/false), it is the answer. "auto"
 * seeds a store with nothing in it only on a developer's machine: a server that listens on
 * loopback and has no owner configured. A real installation (reachable from others, or given
 * its owner) never gets the demo's logins by default.
 */
export function demoWanted(config: Pick<Config, "demo" | "hostname" | "owner">, storeEmpty: boolean): boolean {
  if (config.demo !== "auto") return config.demo;
  return storeEmpty && isLoopback(config.hostname) && !config.owner;
}

/** Twelve random letters and digits (no look-alikes): the demo's password when none is set. */
function randomPassword(): string {
  const alphabet = "abcdefghjkmnpqrstuvwxyz23456789";
  return Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => alphabet[b % alphabet.length]).join("");
}

/** BALCAO_OWNER_EMAIL and BALCAO_OWNER_PASSWORD, both or neither; a bad pair stops the start. */
function ownerOf(email: string | undefined, password: string | undefined): Config["owner"] {
  if (!email && !password) return undefined;
  if (!email || !password) throw new Error("BALCAO_OWNER_EMAIL and BALCAO_OWNER_PASSWORD go together: set both or neither");
  if (!/^[^\s@]+@[^\s@]+$/.test(email.trim())) throw new Error(`BALCAO_OWNER_EMAIL is not an e-mail address: ${email}`);
  if (password.length < OWNER_PASSWORD_MIN || password.length > 50) {
    throw new Error(`BALCAO_OWNER_PASSWORD must have ${OWNER_PASSWORD_MIN} to 50 characters`);
  }
  return { email: email.trim().toLowerCase(), password };
}

/** Shortest platform owner's password accepted from the environment. */
export const OWNER_PASSWORD_MIN = 10;
