/**
 * The engine's read of group lists (actors/campaigns/ports.ts GroupListSource): a group list
 * is one of the company's WhatsApp groups, a group contact (spec 000 §3 Contact with isGroup);
 * its members are asked of a connection (the channel's groupParticipants: Baileys' group
 * metadata, Evolution's participants, the simulator's groups), through the campaign's
 * connections in order until one can tell.
 *
 * Readings chosen: the connections' own numbers are left out (a phone is a member of every
 * group it is in; a campaign does not write to itself); a number already in the campaign's
 * contact list is left out (it gets the list's message once); a member is named as the
 * company's contacts name them, else by the number (what the message's {nome} becomes). A
 * group that no connection knows any more (left, deleted) has no members: the campaign goes
 * on with its list. Only a connection that cannot answer now (not connected) makes the start
 * wait and try again.
 */
import type { GroupListSource } from "../../actors/campaigns/mod.ts";
import { findContactByNumber, getContact } from "../../actors/contacts/mod.ts";
import { listHasNumber } from "../../actors/contact_lists/mod.ts";
import { whatsapps } from "../../actors/whatsapps/collection.ts";
import { AppError } from "../../domain/errors.ts";
import type { AppDeps } from "../deps.ts";
import { digits } from "../channels/types.ts";

export function groupLists(deps: Pick<AppDeps, "system" | "channels">): GroupListSource {
  const { system, channels } = deps;
  return {
    async name(companyId, groupId) {
      const group = await getContact(system, companyId, groupId);
      return group?.isGroup ? group.name : undefined;
    },
    async members(companyId, groupId, whatsappIds, listId) {
      const group = await getContact(system, companyId, groupId);
      if (!group?.isGroup) return [];
      let numbers: string[] | undefined;
      const failures: unknown[] = [];
      for (const whatsappId of whatsappIds) {
        try {
          numbers = await channels.groupParticipants(companyId, whatsappId, group.number);
          break;
        } catch (error) {
          failures.push(error);
        }
      }
      if (!numbers) {
        const gone = failures.length > 0 && failures.every((e) => e instanceof AppError && e.code === "ERR_NO_CONTACT_FOUND");
        if (gone) return [];
        throw failures.at(-1) ?? new Error(`No connection to read group ${groupId}`);
      }
      const own = new Set([...(await whatsapps.in(system, companyId).records()).values()].map((w) => digits(w.number)).filter(Boolean));
      const out: { number: string; name: string }[] = [];
      const seen = new Set<string>();
      for (const raw of numbers) {
        const number = digits(raw);
        if (!number || own.has(number) || seen.has(number)) continue;
        seen.add(number);
        if (listId !== null && await listHasNumber(system, companyId, listId, number)) continue;
        const contact = await findContactByNumber(system, companyId, number);
        out.push({ number, name: contact?.name || number });
      }
      return out;
    },
  };
}
