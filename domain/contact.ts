/** Contacts (spec 000 §3, §5; 001 §2.14, §3). Numbers are stored as digits only. */
import { z } from "zod";
import { MSG, sized } from "./text.ts";

export const ExtraInfo = z.object({ name: z.string(), value: z.string() });

export const Contact = z.object({
  id: z.number(),
  companyId: z.number(),
  name: z.string(),
  /** Digits only; for groups the group id. */
  number: z.string(),
  email: z.string(),
  profilePicUrl: z.string(),
  disableBot: z.boolean(),
  extraInfo: z.array(ExtraInfo),
  walleteUserId: z.number().nullable(),
  acceptAudioMessage: z.boolean(),
  active: z.boolean(),
  isGroup: z.boolean(),
  /** WhatsApp LID when the channel revealed one (never stored as `number`). */
  lid: z.string().nullable(),
  channel: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type Contact = z.infer<typeof Contact>;

/** Digits of a phone number, as every lookup compares them. */
export function normalizeNumber(raw: string): string {
  return raw.replace(/\D/g, "");
}

/** POST /contacts and PUT /contacts/{id} body (spec 000 §5). */
export const ContactInput = z.object({
  name: sized(2, 50),
  number: z.string({ error: MSG.required }).transform(normalizeNumber).pipe(
    z.string().min(8, MSG.tooShort).max(50, MSG.tooLong),
  ),
  email: z.union([z.literal(""), z.email(MSG.invalidEmail)]).default(""),
  disableBot: z.boolean().default(false),
  acceptAudioMessage: z.boolean().default(true),
  extraInfo: z.array(ExtraInfo).default([]),
  walleteUserId: z.coerce.number().int().positive().nullable().optional(),
});
export type ContactInput = z.infer<typeof ContactInput>;
