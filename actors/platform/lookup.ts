/** Reads of the platform collections that many handlers share; all in memory, no KV scans. */
import type { ActorSystem } from "../_runtime/system.ts";
import type { Company } from "../../domain/company.ts";
import type { Plan } from "../../domain/plan.ts";
import {
  GLOBAL_SETTING_KEYS,
  type Setting,
  SETTING_DEFAULTS,
  settingReadable,
  type SettingReader,
  shownSettingValue,
} from "../../domain/settings.ts";
import type { User } from "../../domain/user.ts";
import { companies, PLATFORM, plans, settings, users } from "./collections.ts";

export async function getUser(system: ActorSystem, id: number): Promise<User | undefined> {
  return await users.in(system, PLATFORM).get(id);
}

/** The user of a company, or undefined when it does not exist there. */
export async function getCompanyUser(
  system: ActorSystem,
  companyId: number,
  id: number,
): Promise<User | undefined> {
  const user = await getUser(system, id);
  return user?.companyId === companyId ? user : undefined;
}

export async function findUserByEmail(
  system: ActorSystem,
  email: string,
): Promise<User | undefined> {
  const needle = email.trim().toLowerCase();
  for (const user of (await users.in(system, PLATFORM).records()).values()) {
    if (user.email === needle) return user;
  }
  return undefined;
}

/** The users of one company, in id order. */
export async function companyUsers(system: ActorSystem, companyId: number): Promise<User[]> {
  const all = await users.in(system, PLATFORM).list();
  return all.filter((u) => u.companyId === companyId);
}

export async function getCompany(system: ActorSystem, id: number): Promise<Company | undefined> {
  return await companies.in(system, PLATFORM).get(id);
}

export async function getPlan(system: ActorSystem, id: number | null): Promise<Plan | undefined> {
  return id === null ? undefined : await plans.in(system, PLATFORM).get(id);
}

/** The plan of a company (undefined when it has none). */
export async function companyPlan(system: ActorSystem, companyId: number) {
  const company = await getCompany(system, companyId);
  return company ? await getPlan(system, company.planId) : undefined;
}

/**
 * Every setting of a company, defaults filled in for keys never written. Built once per change
 * of its settings and shared (frozen): the inbound path reads it for every message.
 */
export function companySettings(
  system: ActorSystem,
  companyId: number,
): Promise<Readonly<Record<string, string>>> {
  return settings.in(system, companyId).derive("withDefaults", withDefaults);
}

/** `companySettings` without a turn of the loop: undefined when they are not in memory. */
export function companySettingsNow(system: ActorSystem, companyId: number): Readonly<Record<string, string>> | undefined {
  return settings.in(system, companyId).deriveNow("withDefaults", withDefaults);
}

function withDefaults(records: ReadonlyMap<number, { key: string; value: string }>): Readonly<Record<string, string>> {
  const result: Record<string, string> = { ...SETTING_DEFAULTS };
  for (const s of records.values()) result[s.key] = s.value;
  return Object.freeze(result);
}

/**
 * The platform company: the company of the first super user (the platform owner). Global
 * settings (allowregister, trial, payment credentials…) live there. Undefined before any
 * super user exists.
 */
export async function platformCompanyId(system: ActorSystem): Promise<number | undefined> {
  let first: User | undefined;
  for (const user of (await users.in(system, PLATFORM).records()).values()) {
    if (user.super && (!first || user.id < first.id)) first = user;
  }
  return first?.companyId;
}

/**
 * The platform's settings (global keys included), defaults filled in. In a process of several
 * (issue #35) the platform company may be run by another process, whose settings actor this
 * one may not wake: the stored records are read instead, at most a second old.
 */
export async function platformSettings(system: ActorSystem): Promise<Record<string, string>> {
  const id = await platformCompanyId(system);
  if (id === undefined) return { ...SETTING_DEFAULTS };
  if (!system.cluster || system.owns(id)) return await companySettings(system, id);
  const cached = storedSettings.get(system);
  if (cached && cached.companyId === id && cached.at > system.now() - 1000) return { ...cached.values };
  const values: Record<string, string> = { ...SETTING_DEFAULTS };
  for await (const entry of system.kv.list<Setting>({ prefix: ["setting", id] })) values[entry.value.key] = entry.value.value;
  storedSettings.set(system, { companyId: id, at: system.now(), values });
  return { ...values };
}

/** The platform's stored settings, as last read by a process that does not run the platform company. */
const storedSettings = new WeakMap<ActorSystem, { companyId: number; at: number; values: Record<string, string> }>();

/**
 * The settings of company `companyId` as `who` may read them: global keys from the platform
 * company (the one place they are written), keys `who` may not read left out, secrets
 * masked (write-only, domain/settings.ts SECRET_MASK). For showing only: business rules read
 * companySettings / platformSettings.
 */
export async function visibleSettings(
  system: ActorSystem,
  companyId: number,
  who: SettingReader,
): Promise<Record<string, string>> {
  const [own, platform] = await Promise.all([
    companySettings(system, companyId),
    platformSettings(system),
  ]);
  const result: Record<string, string> = {};
  for (const [key, value] of Object.entries(own)) {
    if (!settingReadable(who, key)) continue;
    result[key] = shownSettingValue(key, GLOBAL_SETTING_KEYS.has(key) ? platform[key] : value);
  }
  return result;
}
