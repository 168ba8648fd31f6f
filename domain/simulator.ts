/**
 * The request shapes of the simulator's JSON endpoints (issue #4, server/api/simulator.ts):
 * what a simulated customer sends, calls and acknowledges. The handlers and the API
 * document both read them here.
 */
import { z } from "zod";
import type { MediaType } from "./channel.ts";
import { MAX } from "./text.ts";

const MEDIA_TYPES = ["chat", "image", "audio", "video", "document", "application", "locationMessage", "contactMessage", "vcard", "sticker"] as const satisfies readonly MediaType[];

/** POST /simulator/{id}/inbound body. */
export const SimulatorInboundInput = z.object({
  from: z.string().max(MAX.phone, "Invalid number").trim().regex(/^\+?[\d\s()-]{8,20}$/, "Invalid number"),
  name: z.string().trim().max(80).default(""),
  body: z.string().max(4096).default(""),
  mediaType: z.enum(MEDIA_TYPES).optional(),
  // Decoded with atob by the simulated phone: text that is not base64 is refused here, not a 500 there.
  mediaBase64: z.base64().max(5_000_000).optional(),
  mimetype: z.string().trim().max(100).regex(/^[\w.+-]+\/[\w.+-]+$/, "Invalid type").optional(),
  filename: z.string().trim().max(MAX.name).optional(),
  isGroup: z.boolean().default(false),
  groupId: z.string().trim().max(128).optional(),
  groupName: z.string().trim().max(MAX.name).optional(),
  id: z.string().trim().min(1).max(128).optional(),
  fromMe: z.boolean().optional(),
});

/** POST /simulator/{id}/call body: a customer calls the phone. */
export const SimulatorCallInput = z.object({
  from: SimulatorInboundInput.shape.from,
  name: z.string().trim().max(80).default(""),
  isVideo: z.boolean().default(false),
});

/** POST /simulator/{id}/ack body. */
export const SimulatorAckInput = z.object({ id: z.string().min(1).max(128), ack: z.coerce.number().int().min(0).max(5) });

/** POST /simulator/{id}/fail body: how many of the next sends fail. */
export const FailInput = z.object({ count: z.coerce.number().int().min(0).max(100).default(1) });
