/**
 * A large company's contact name index (the name order, the search texts and their trigram
 * filter: state.ts `nameSteps`) built in the background after the start's warm-up, in slices.
 *
 * Why (issue #23 §3): at 500,000 contacts the name index is ~2 s of the start's single
 * thread, and nothing a start serves first needs it: the ticket lists, an inbound message
 * and a ticket's contact read the records and the number and LID maps, which the activation
 * still builds. A contact list or export waits for the index; a ticket search during the
 * build answers without contact matches and says it is partial, as it does while the
 * message index builds (messages/search_index.ts).
 */
import type { Contact } from "../../domain/contact.ts";
import { runToEnd } from "../_runtime/merge_sort.ts";
import { runInSlices } from "../_runtime/slices.ts";
import type { ActorSystem } from "../_runtime/system.ts";
import { type ContactsState, installNames, type NameBuild, nameSteps } from "./state.ts";
import { log } from "../_runtime/log.ts";

/** From this many contacts the activation builds the name index in the background. */
export const NAME_IN_BACKGROUND_FROM = 20_000;

/**
 * Contacts written during a build above which the build starts over from the records as
 * they are then, rather than move each into the built index (a splice of the whole order).
 */
const REDO_ABOVE = 2_000;

/**
 * Sets `state` to have its name index built from `contacts` (its records at activation): the
 * build begins at `startNaming` (the warm-up's, once every read model is loaded, so it does
 * not slow the loads that the first lists wait for) or at the first read that needs it.
 */
export function nameLater(system: ActorSystem, state: ContactsState, contacts: Contact[]): void {
  const { promise, resolve } = Promise.withResolvers<void>();
  const naming: NameBuild = { startedAt: Infinity, done: promise, dirty: new Set() };
  naming.start = () => {
    naming.start = undefined;
    naming.startedAt = performance.now();
    let started = false;
    system.background(`The contacts' name index of company ${state.companyId}`, async (running) => {
      started = true;
      try {
        for (let from = contacts; running();) {
          const parts = await runInSlices(nameSteps(from), running, system.slices);
          if (!parts || !state.naming) return;
          if (state.naming.dirty.size <= REDO_ABOVE) {
            installNames(state, parts);
            const seconds = ((performance.now() - naming.startedAt) / 1000).toFixed(2);
            return log.info(`The contacts of company ${state.companyId}: name index built in ${seconds} s (${from.length} records)`);
          }
          state.naming.dirty = new Set();
          from = [...state.contacts.values()];
        }
      } finally {
        resolve();
      }
    });
    // The system is closing: no background work runs any more.
    if (!started) {
      installNames(state, runToEnd(nameSteps([...state.contacts.values()])));
      resolve();
    }
  };
  state.naming = naming;
}

/** Begins the name index build of `state` if it waits for one (see `nameLater`). */
export function startNaming(state: ContactsState): void {
  state.naming?.start?.();
}

/**
 * `state` once its name index is in place. A build the system stopped (it is closing)
 * never puts it in place: an error then, not an empty list.
 */
export async function withNames(state: ContactsState): Promise<ContactsState> {
  if (!state.naming) return state;
  startNaming(state);
  await state.naming.done;
  if (state.naming) throw new Error(`The contacts of company ${state.companyId} are not indexed: the system is closing`);
  return state;
}
