/**
 * The simulated phone's small forms: a new chat (the customer's name and number), a location
 * to share (coordinates and a place name, Avenida Paulista by default) and a contact card to
 * send (a name and a number, sent as the vCard WhatsApp sends). Checked with the server's own
 * schemas (domain/phone_view.ts), their messages in the viewer's language.
 */
import { locationBody } from "../../domain/phone_view.ts";
import { vcard } from "../../domain/message.ts";
import { t } from "../lib/i18n.ts";
import { FormDialog, type FormErrors, TextField, useSchemaForm } from "../ui/form.tsx";
import type { PhoneSend } from "./types.ts";

interface Person extends Record<string, unknown> {
  name: string;
  number: string;
}

interface Place extends Record<string, unknown> {
  latitude: string;
  longitude: string;
  label: string;
}

const NUMBER = /^\+?[\d\s()-]{8,20}$/;

/** The person form's messages, translated (the schema's own are its fallback). */
function personErrors(v: Person): FormErrors {
  const errors: FormErrors = {};
  if (!v.name.trim()) errors.name = t("simulator.required");
  if (!NUMBER.test(v.number.trim())) errors.number = t("simulator.invalidNumber");
  return errors;
}

function placeErrors(v: Place): FormErrors {
  const errors: FormErrors = {};
  const lat = Number(v.latitude);
  const lng = Number(v.longitude);
  if (v.latitude.trim() === "" || !(lat >= -90 && lat <= 90)) errors.latitude = t("simulator.invalidCoordinate");
  if (v.longitude.trim() === "" || !(lng >= -180 && lng <= 180)) errors.longitude = t("simulator.invalidCoordinate");
  return errors;
}

/** The new chat dialog: resolves with the customer's name and number (digits). */
export function NewChatDialog({ onClose, onStart }: { onClose: () => void; onStart: (name: string, number: string) => void }) {
  const form = useSchemaForm<Person>({
    schema: "PhoneNewChat",
    initial: { name: "", number: "55119" },
    check: personErrors,
    onSubmit: (v) => {
      onStart(v.name.trim(), v.number.replace(/\D/g, ""));
      onClose();
      return Promise.resolve();
    },
  });
  return (
    <FormDialog open onOpenChange={(o) => !o && onClose()} title={t("simulator.newChat")} form={form} submitLabel={t("simulator.start")} testId="phone-new-chat">
      <TextField form={form} name="name" label={t("simulator.name")} className="form-full" autoFocus />
      <TextField form={form} name="number" label={t("simulator.number")} className="form-full" type="tel" />
    </FormDialog>
  );
}

/** The location dialog. */
export function LocationDialog({ onClose, onSend }: { onClose: () => void; onSend: (m: PhoneSend) => Promise<void> }) {
  const form = useSchemaForm<Place>({
    schema: "PhoneLocation",
    initial: { latitude: "-23.5614", longitude: "-46.6559", label: "Avenida Paulista, São Paulo" },
    check: placeErrors,
    onSubmit: async (v) => {
      await onSend({ mediaType: "locationMessage", body: locationBody(Number(v.latitude), Number(v.longitude), v.label) });
      onClose();
    },
  });
  return (
    <FormDialog open onOpenChange={(o) => !o && onClose()} title={t("simulator.location")} form={form} submitLabel={t("simulator.send")} testId="phone-location">
      <TextField form={form} name="latitude" label={t("simulator.latitude")} autoFocus />
      <TextField form={form} name="longitude" label={t("simulator.longitude")} />
      <TextField form={form} name="label" label={t("simulator.place")} className="form-full" />
    </FormDialog>
  );
}

/** The contact card dialog. */
export function ContactDialog({ onClose, onSend }: { onClose: () => void; onSend: (m: PhoneSend) => Promise<void> }) {
  const form = useSchemaForm<Person>({
    schema: "PhoneNewChat",
    initial: { name: "", number: "" },
    check: personErrors,
    onSubmit: async (v) => {
      await onSend({ mediaType: "contactMessage", body: vcard(v.name, v.number) });
      onClose();
    },
  });
  return (
    <FormDialog open onOpenChange={(o) => !o && onClose()} title={t("simulator.contact")} form={form} submitLabel={t("simulator.send")} testId="phone-contact">
      <TextField form={form} name="name" label={t("simulator.contactName")} className="form-full" autoFocus />
      <TextField form={form} name="number" label={t("simulator.contactNumber")} className="form-full" type="tel" />
    </FormDialog>
  );
}
