/** Companies (tenants) as stored and as sent (spec 001 §3, 002 §3). */
import { z } from "zod";
import { Email, Id, MSG, sized } from "./text.ts";

export const WeekdaySchedule = z.object({
  weekday: z.string(),
  weekdayEn: z.string(),
  startTime: z.string(),
  endTime: z.string(),
});
export type WeekdaySchedule = z.infer<typeof WeekdaySchedule>;

export const Company = z.object({
  id: z.number(),
  name: z.string(),
  namecomplete: z.string(),
  email: z.string(),
  phone: z.string(),
  pais: z.string(),
  indicator: z.string(),
  planId: z.number().nullable(),
  status: z.boolean(),
  isTest: z.boolean(),
  /** Due date in ms since the epoch; null means never due (the platform company). */
  dueDate: z.number().nullable(),
  recurrence: z.string(),
  schedules: z.array(WeekdaySchedule),
  lunchHour: z.object({ startTime: z.string(), endTime: z.string() }).nullable(),
  billingName: z.string(),
  addressZipCode: z.string(),
  addressStreet: z.string(),
  addressState: z.string(),
  addressCity: z.string(),
  addressDistrict: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type Company = z.infer<typeof Company>;

/** A date given as ISO text or ms; empty or invalid means null (spec 001 §5). */
export const DueDate = z.preprocess((v) => {
  if (v === null || v === undefined || v === "") return null;
  const ms = typeof v === "number" ? v : Date.parse(String(v));
  return Number.isFinite(ms) ? ms : null;
}, z.number().nullable());

/** POST /companies and PUT /companies/{id} body (company form, spec 001 §2.6). */
export const CompanyInput = z.object({
  name: sized(2, 50),
  email: Email,
  phone: z.string().trim().max(50, MSG.tooLong).default(""),
  namecomplete: z.string().trim().max(50, MSG.tooLong).default(""),
  pais: z.string().trim().max(50, MSG.tooLong).default("BR"),
  indicator: z.string().trim().max(50).default(""),
  planId: Id.nullable().optional(),
  status: z.preprocess((v) => v === "t" || v === "true" || v === true || v === undefined, z.boolean())
    .default(true),
  dueDate: DueDate.optional(),
  recurrence: z.literal("MENSAL").default("MENSAL"),
  campaignsEnabled: z.boolean().optional(),
});
export type CompanyInput = z.infer<typeof CompanyInput>;
