/**
 * The checkout's body, POST /subscription (spec 001 §3 Subscription payload, §5 checkout
 * address step, §2.21). One schema for the dialog's form and the server, so both show the
 * spec's texts. Card fields are accepted but dropped by the parse: card numbers are typed on
 * the providers' hosted pages, never here, so nothing downstream can store one by mistake.
 */
import { z } from "zod";
import { PlanPrice } from "./plan.ts";
import { MAX, MSG } from "./text.ts";

export const CHECKOUT_MSG = {
  firstName: "O nome completo é obrigatório",
  address2: "O Endereço é obrigatório",
  city: "Cidade é obrigatória",
  zipcode: "CEP é obrigatório",
  zipcodeFormat: "Formato de CEP inválido",
  country: "País é obrigatório",
} as const;

/** The countries the address step offers (Brasil, United States). */
export const CHECKOUT_COUNTRIES = ["BR", "US"] as const;
export type CheckoutCountry = typeof CHECKOUT_COUNTRIES[number];

/** CEP 00000-000 or 8 digits; US ZIP 5 digits or ZIP+4. */
const ZIP_FORMAT: Record<CheckoutCountry, RegExp> = {
  BR: /^\d{5}-?\d{3}$/,
  US: /^\d{5}(-\d{4})?$/,
};

/** True when `zip` has the postal-code shape of `country`. */
export function zipcodeValid(country: CheckoutCountry, zip: string): boolean {
  return ZIP_FORMAT[country].test(zip.trim());
}

/** The cross-field rule: the zip code has the chosen country's shape (runs once all fields parse). */
function zipcodeMatchesCountry(
  ctx: z.core.ParsePayload<{ country: CheckoutCountry; zipcode: string }>,
): void {
  const { country, zipcode } = ctx.value;
  if (!zipcodeValid(country, zipcode)) {
    ctx.issues.push({ code: "custom", message: CHECKOUT_MSG.zipcodeFormat, path: ["zipcode"], input: zipcode });
  }
}

/** A required trimmed text with the spec's own "required" message. */
const required = (message: string) =>
  z.string({ error: message }).trim().min(1, message).max(MAX.name, MSG.tooLong);

const optionalText = z.string().trim().max(MAX.name, MSG.tooLong).optional();

/** Card fields the old client sends; accepted (so its bodies pass) and dropped from the output. */
const ignoredCardField = z.unknown().optional().transform(() => undefined);

/** The plan the dialog shows, sent as a JSON string `{ price, users, connections }`. */
export const CheckoutPlan = z.object({
  price: PlanPrice,
  users: z.coerce.number().int().nonnegative(),
  connections: z.coerce.number().int().nonnegative(),
});
export type CheckoutPlan = z.infer<typeof CheckoutPlan>;

const PlanJson = z.string().max(MAX.secret, MSG.tooLong).transform((s, ctx) => {
  try {
    const parsed = CheckoutPlan.safeParse(JSON.parse(s));
    if (parsed.success) return JSON.stringify(parsed.data);
  } catch {
    // falls through to the issue below
  }
  ctx.addIssue({ code: "custom", message: "Invalid plan" });
  return z.NEVER;
});

/** The address step's fields alone (the dialog's Personalizar step validates with this). */
export const CheckoutAddress = z.object({
  firstName: required(CHECKOUT_MSG.firstName),
  lastName: optionalText,
  address2: required(CHECKOUT_MSG.address2),
  city: required(CHECKOUT_MSG.city),
  state: optionalText,
  zipcode: required(CHECKOUT_MSG.zipcode),
  country: z.enum(CHECKOUT_COUNTRIES, { error: CHECKOUT_MSG.country }),
  useAddressForPaymentDetails: z.boolean().optional(),
}).check(zipcodeMatchesCountry);
export type CheckoutAddress = z.infer<typeof CheckoutAddress>;

/** POST /subscription body. */
export const SubscriptionPayload = z.object({
  ...CheckoutAddress.shape,
  nameOnCard: ignoredCardField,
  cardNumber: ignoredCardField,
  cvv: ignoredCardField,
  expiry: ignoredCardField,
  plan: PlanJson,
  price: PlanPrice,
  users: z.coerce.number().int().nonnegative(),
  connections: z.coerce.number().int().nonnegative(),
  invoiceId: z.coerce.number({ error: MSG.required }).int().positive(),
}).check(zipcodeMatchesCountry).transform(({ nameOnCard: _n, cardNumber: _c, cvv: _v, expiry: _e, ...rest }) => rest);
export type SubscriptionPayload = z.infer<typeof SubscriptionPayload>;

