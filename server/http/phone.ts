/**
 * Typed phone numbers read for the company (domain/phone_number.ts, issue #41): the one step
 * the contact form, contact imports, contact lists and their imports take before storing.
 */
import { getCompany } from "../../actors/platform/lookup.ts";
import type { ActorSystem } from "../../actors/_runtime/system.ts";
import { AppError } from "../../domain/errors.ts";
import { normalizePhone, phoneProblem } from "../../domain/phone_number.ts";

/** The company's country (`pais`), whose calling code a number without one gets. */
export async function companyCountry(system: ActorSystem, companyId: number): Promise<string | undefined> {
  return (await getCompany(system, companyId))?.pais;
}

/** The international digits of `typed`, or a 400 on `field` when no WhatsApp account can have them. */
export function readPhone(typed: string, country: string | undefined, field = "number"): string {
  const number = normalizePhone(typed, country);
  const problem = phoneProblem(number);
  if (problem) {
    throw new AppError("ERR_VALIDATION", { status: 400, message: `${field}: ${problem} (${number})`, fields: { [field]: problem } });
  }
  return number;
}
