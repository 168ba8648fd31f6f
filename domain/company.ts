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

/** A company's billing name and address, all empty until someone fills them in (spec 001 §3). */
export const NO_BILLING = {
  billingName: "",
  addressZipCode: "",
  addressStreet: "",
  addressState: "",
  addressCity: "",
  addressDistrict: "",
};
export type Billing = typeof NO_BILLING;

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
}, z.number().min(0).max(8.64e15).nullable()); // Date's own range

/** A billing or address field: optional text up to 100 characters (absent keeps the old value). */
const Optional100 = z.string().trim().max(100, MSG.tooLong).optional();

/** A plan id the sign-up requires: missing or empty says 'Required' (not a number parse error). */
const RequiredPlanId = z.coerce.number({ error: MSG.required }).int().positive(MSG.required);

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
  billingName: Optional100,
  addressZipCode: Optional100,
  addressStreet: Optional100,
  addressState: Optional100,
  addressCity: Optional100,
  addressDistrict: Optional100,
});
export type CompanyInput = z.infer<typeof CompanyInput>;

/** HH:MM on a 24-hour clock (the ##:## mask of spec 001 §5). */
const Time = z.string().trim().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "Invalid time");

/** PUT /companies/{id}/schedules body: the company-level opening hours (spec 001 §2.5). */
export const CompanySchedulesInput = z.object({
  id: z.coerce.number().int().optional(),
  schedules: z.array(WeekdaySchedule.extend({ startTime: Time, endTime: Time })).max(7),
  lunchHour: z.object({ startTime: Time, endTime: Time }).nullable().optional(),
});
export type CompanySchedulesInput = z.infer<typeof CompanySchedulesInput>;

/**
 * Sign-up body, for POST /companies/internal (super) and the public POST /companies/cadastro
 * (spec 001 §2.7, §5): name, namecomplete and pais 2–50; phone 8–50; password 5–50; valid
 * e-mail. The due date, recurrence and status the client sends are ignored: the server sets
 * them from the trial setting.
 */
export const SignupInput = z.object({
  namecomplete: sized(2, 50),
  name: sized(2, 50),
  email: Email,
  password: z.string({ error: MSG.required }).min(1, MSG.required).min(5, MSG.tooShort).max(50, MSG.tooLong),
  phone: sized(8, 50),
  pais: sized(2, 50).default("BR"),
  planId: RequiredPlanId,
  indicator: z.string().trim().max(50, MSG.tooLong).default(""),
  campaignsEnabled: z.boolean().optional(),
});
export type SignupInput = z.infer<typeof SignupInput>;
