/** Connections (WhatsApp numbers) as stored (spec 001 §3 "Connection", §2.2). */
import { z } from "zod";
import type { SessionStatus } from "./channel.ts";

export const Provider = z.enum(["simulator", "baileys", "evolution", "cloudapi", "beta"]);
export type Provider = z.infer<typeof Provider>;

export const SESSION_STATUSES = [
  "DISCONNECTED",
  "OPENING",
  "qrcode",
  "PAIRING",
  "CONNECTED",
  "TIMEOUT",
] as const satisfies readonly SessionStatus[];

export const Whatsapp = z.object({
  id: z.number(),
  companyId: z.number(),
  name: z.string(),
  number: z.string(),
  status: z.enum(SESSION_STATUSES),
  statusEvo: z.enum(SESSION_STATUSES),
  qrcode: z.string(),
  qrcodeEvo: z.string(),
  retries: z.number(),
  isDefault: z.boolean(),
  greetingMessage: z.string(),
  complationMessage: z.string(),
  outOfHoursMessage: z.string(),
  ratingMessage: z.string(),
  closeMessage: z.string(),
  token: z.string(),
  webhook: z.string(),
  ignoreNumbers: z.string(),
  queueIds: z.array(z.number()),
  selectedMoveQueueId: z.number().nullable(),
  selectedInterval: z.number(),
  inatividade: z.number(),
  provider: Provider,
  channel: z.string(),
  keywords: z.array(z.object({ keyword: z.string(), code: z.string() })),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type Whatsapp = z.infer<typeof Whatsapp>;
