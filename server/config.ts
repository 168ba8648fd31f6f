/** Configuration from the environment, with the safe defaults of DESIGN §9. */
import type { RetryPolicy } from "../domain/webhook.ts";
import type { LoginLimits } from "./auth/login_limits.ts";
import type { PaymentApiUrls } from "./billing/providers/types.ts";

/** Meta's Graph API, at the version the Cloud API adapter was written against. */
export const DEFAULT_GRAPH_API_URL = "https://graph.facebook.com/v21.0";

export interface Config {
  port: number;
  /** Deno KV location: a path, `:memory:`, or an `https://` KV Connect URL. */
  kvPath: string;
  /** Folder for media files. */
  dataDir: string;
  /** Token signing secret; generated and stored in KV on first start when absent. */
  secret?: string;
  /** Seed the demo tenant: true, false, or "auto" (when the store is empty). */
  demo: boolean | "auto";
  demoPassword: string;
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
   * Outbound webhook subscriptions may call private and loopback addresses
   * (BALCAO_WEBHOOK_ALLOW_PRIVATE=1): off in production, on in tests and closed networks.
   */
  webhookAllowPrivate?: boolean;
  /**
   * Link previews (GET /messages/metadados) may fetch private and loopback addresses on any
   * port (BALCAO_PREVIEW_ALLOW_PRIVATE=1): off in production, on in tests and closed networks.
   */
  linkPreviewAllowPrivate?: boolean;
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
}

/** Reads the configuration from `env` (defaults to the process environment). */
export function loadConfig(env: Record<string, string | undefined> = Deno.env.toObject()): Config {
  const demo = env.BALCAO_DEMO;
  return {
    port: Number(env.PORT ?? 8080),
    kvPath: env.BALCAO_KV ?? "./data/balcao.kv",
    dataDir: env.BALCAO_DATA ?? "./data/media",
    secret: env.BALCAO_SECRET || undefined,
    demo: demo === undefined || demo === "" ? "auto" : demo === "1" || demo === "true",
    demoPassword: env.BALCAO_DEMO_PASSWORD || "demo1234",
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
    webhookAllowPrivate: env.BALCAO_WEBHOOK_ALLOW_PRIVATE === "1" || env.BALCAO_WEBHOOK_ALLOW_PRIVATE === "true",
    linkPreviewAllowPrivate: env.BALCAO_PREVIEW_ALLOW_PRIVATE === "1" || env.BALCAO_PREVIEW_ALLOW_PRIVATE === "true",
    trustProxy: env.BALCAO_TRUST_PROXY === "1" || env.BALCAO_TRUST_PROXY === "true",
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
