/**
 * The checkout's Dados step (spec 001 §2.21, §5): first name, country (Brasil BR or United
 * States), zip code (the Brazilian CEP mask 00000-000; ZIP+4 for the US), address, state and
 * city, checked by domain/checkout.ts's CheckoutAddress through the form kit so the §5
 * messages show before any call.
 */
import type { CheckoutCountry } from "../../domain/checkout.ts";
import { t } from "../lib/i18n.ts";
import { type SchemaForm, SelectField, TextField } from "../ui/form.tsx";

/** The address step's values (CheckoutAddress's fields). */
export interface AddressValues extends Record<string, unknown> {
  firstName: string;
  country: CheckoutCountry;
  zipcode: string;
  address2: string;
  state: string;
  city: string;
}

/** An empty address in Brazil. */
export const EMPTY_ADDRESS: AddressValues = { firstName: "", country: "BR", zipcode: "", address2: "", state: "", city: "" };

const ZIP_MASK: Record<CheckoutCountry, string> = { BR: "#####-###", US: "#####-####" };

/** The address form's fields. */
export function AddressFields({ form }: { form: SchemaForm<AddressValues> }) {
  const countries = [
    { value: "BR" as const, label: t("checkout.countryBR") },
    { value: "US" as const, label: t("checkout.countryUS") },
  ];
  return (
    <>
      <TextField form={form} name="firstName" label={t("checkout.firstName")} className="form-full" autoFocus />
      <SelectField form={form} name="country" label={t("checkout.country")} options={countries} />
      <TextField form={form} name="zipcode" label={t("checkout.zipcode")} mask={ZIP_MASK[form.values.country] ?? ZIP_MASK.BR} placeholder={form.values.country === "US" ? "00000" : "00000-000"} />
      <TextField form={form} name="address2" label={t("checkout.address")} className="form-full" />
      <TextField form={form} name="state" label={t("checkout.state")} />
      <TextField form={form} name="city" label={t("checkout.city")} />
    </>
  );
}

/** The company's billing fields (GET /companies/{id}) the Dados step starts from. */
export interface CompanyAddress {
  name?: string;
  billingName?: string | null;
  addressZipCode?: string | null;
  addressStreet?: string | null;
  addressState?: string | null;
  addressCity?: string | null;
}

/** The company's billing address as the form's values (only what is filled in). */
export function addressOf(company: CompanyAddress | null | undefined): Partial<AddressValues> {
  if (!company) return {};
  const known: Partial<AddressValues> = {
    firstName: company.billingName || company.name || "",
    zipcode: company.addressZipCode ?? "",
    address2: company.addressStreet ?? "",
    state: company.addressState ?? "",
    city: company.addressCity ?? "",
  };
  return Object.fromEntries(Object.entries(known).filter(([, v]) => v)) as Partial<AddressValues>;
}
