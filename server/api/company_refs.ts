/**
 * Ids a request names (a tag's or rating's user, a schedule's contact, queue and connection, a
 * campaign's connections, queue, tag and user) must be records of the caller's company
 * (issue #24): a schema only knows an id is a positive number, so without this another
 * company's user id was stored as a tag's owner. One check for every handler, each kind
 * answering its catalogue's 404; `null`/`undefined` ids are "none" and pass.
 */
import { getContact } from "../../actors/contacts/mod.ts";
import { getCompanyUser } from "../../actors/platform/lookup.ts";
import { queues } from "../../actors/queues/collection.ts";
import { tags } from "../../actors/tags/collection.ts";
import { whatsapps } from "../../actors/whatsapps/collection.ts";
import { AppError, notFound } from "../../domain/errors.ts";
import type { AppDeps } from "../deps.ts";

type System = AppDeps["system"];
type Ids = ReadonlyArray<number | null | undefined> | number | null | undefined;

/** The ids a request names, by kind of record. */
export interface CompanyRefs {
  user?: Ids;
  queue?: Ids;
  whatsapp?: Ids;
  contact?: Ids;
  tag?: Ids;
}

/** How each kind is found in a company, and the 404 its absence answers. */
const KINDS: Record<keyof CompanyRefs, { exists: (system: System, companyId: number, id: number) => Promise<unknown>; missing: (id: number) => AppError }> = {
  user: {
    exists: (s, companyId, id) => getCompanyUser(s, companyId, id),
    missing: (id) => notFound("ERR_NO_USER_FOUND", `User ${id} does not exist`),
  },
  queue: {
    exists: (s, companyId, id) => queues.in(s, companyId).get(id),
    missing: (id) => notFound("ERR_NO_QUEUE_FOUND", `Queue ${id} does not exist`),
  },
  whatsapp: {
    exists: (s, companyId, id) => whatsapps.in(s, companyId).get(id),
    missing: (id) => notFound("ERR_NO_WAPP_FOUND", `Connection ${id} does not exist`),
  },
  contact: {
    exists: (s, companyId, id) => getContact(s, companyId, id),
    missing: (id) => notFound("ERR_NO_CONTACT_FOUND", `Contact ${id} does not exist`),
  },
  tag: {
    exists: (s, companyId, id) => tags.in(s, companyId).get(id),
    missing: (id) => notFound("ERR_NO_TAG_FOUND", `Tag ${id} does not exist`),
  },
};

/** Throws the kind's 404 for the first id in `refs` that is not a record of `companyId`. */
export async function requireCompanyRefs(system: System, companyId: number, refs: CompanyRefs): Promise<void> {
  for (const [kind, ids] of Object.entries(refs) as Array<[keyof CompanyRefs, Ids]>) {
    const list = Array.isArray(ids) ? ids : [ids];
    for (const id of new Set(list)) {
      if (id === null || id === undefined) continue;
      if (!await KINDS[kind].exists(system, companyId, id)) throw KINDS[kind].missing(id);
    }
  }
}
