/**
 * The platform setting allowupserts ("Permitir importação de contatos automática?" in the
 * product the spec was read from; 001 §3 lists it among the global keys): while it is on, the
 * people a connection's phone reports (the adapter's `contacts` event: Baileys' contacts.upsert
 * and history sync, the simulator's address book when it pairs) become the company's contacts
 * without anyone pressing 'Importar contatos do telefone'. Rows are judged as that import
 * judges them (domain/contact_import.ts phoneRows) and created through the contacts actor,
 * which skips a number already known: a contact an agent named or edited keeps its name (an
 * insert, never an overwrite, whatever "upsert" suggests). Off (the default), nothing happens.
 */
import { createManyContacts } from "../../actors/contacts/mod.ts";
import { platformSettings } from "../../actors/platform/lookup.ts";
import type { ActorSystem } from "../../actors/_runtime/system.ts";
import type { PhoneContact } from "../../domain/channel.ts";
import { phoneRows } from "../../domain/contact_import.ts";
import { settingOn } from "../../domain/settings.ts";

/** Creates the reported people `companyId` does not know yet when allowupserts is on; how many. */
export async function importUpserts(system: ActorSystem, companyId: number, contacts: readonly PhoneContact[]): Promise<number> {
  if (contacts.length === 0) return 0;
  if (!settingOn((await platformSettings(system)).allowupserts)) return 0;
  const { valid } = phoneRows(contacts);
  if (valid.length === 0) return 0;
  return (await createManyContacts(system, companyId, valid)).created.length;
}
