/**
 * Deleting a company (spec 001 §2.6): its users first (a company whose users outlived it would
 * leave logins pointing nowhere), then its live channel sessions, the company record, its
 * settings, every other tenant key in KV (actors/tenancy/purge.ts) and its media folder.
 */
import { companies, PLATFORM } from "../../actors/platform/collections.ts";
import { removeCompanySettings } from "../../actors/platform/settings_commands.ts";
import { removeCompanyUsers } from "../../actors/platform/user_commands.ts";
import { dropMessageSearch, providerIndex } from "../../actors/messages/mod.ts";
import { companyMediaDir } from "../../actors/messages/media_files.ts";
import { purgeCompany } from "../../actors/tenancy/purge.ts";
import { whatsapps } from "../../actors/whatsapps/collection.ts";
import { notFound } from "../../domain/errors.ts";
import type { AppDeps } from "../deps.ts";

/** Removes company `id` and all of its data; resolves with the number of tenant keys purged. */
export async function deleteCompany(deps: AppDeps, id: number): Promise<number> {
  const { system, channels, config } = deps;
  await removeCompanyUsers(system, id);
  // Stop the sessions before their records go, so no adapter writes into a purged tenant.
  for (const connection of await whatsapps.in(system, id).list()) {
    await channels.forget(id, connection.id);
  }
  await companies.in(system, PLATFORM).remove(
    id,
    () => notFound("ERR_NO_COMPANY_FOUND", `Company ${id} not found`),
  );
  await removeCompanySettings(system, id);
  const purged = await purgeCompany(system, id);
  providerIndex(system).drop(id);
  dropMessageSearch(system, id);
  await Deno.remove(companyMediaDir(config.dataDir, id), { recursive: true }).catch((error) => {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  });
  return purged;
}
