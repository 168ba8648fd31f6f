/**
 * Platform-wide collections: companies, plans and users (scope 0), and per-company settings
 * (scope = company id). Users are platform-wide because an e-mail address is unique across
 * companies (it is the login), and only one actor can check that without a race.
 */
import { Company } from "../../domain/company.ts";
import { type BusEvent, companyChannel } from "../../domain/events.ts";
import { Plan } from "../../domain/plan.ts";
import { ADMIN_SETTING_KEYS, SECRET_SETTING_KEYS, Setting, shownSettingValue } from "../../domain/settings.ts";
import { User } from "../../domain/user.ts";
import { defineCollection } from "../collection/mod.ts";

/** Scope id of the platform-wide collections. */
export const PLATFORM = 0;

export const companies = defineCollection<Company>({
  name: "company",
  parse: (raw) => Company.parse(raw),
});

export const plans = defineCollection<Plan>({
  name: "plan",
  parse: (raw) => Plan.parse(raw),
});

export const users = defineCollection<User>({
  name: "user",
  parse: (raw) => User.parse(raw),
  events: (action, user) => [{
    companyId: user.companyId,
    channel: companyChannel(user.companyId, "user"),
    data: action === "delete"
      ? { action, userId: user.id }
      : { action, user: publicUser(user) },
    scope: { kind: "company" },
  }],
});

export const settings = defineCollection<Setting>({
  name: "setting",
  parse: (raw) => Setting.parse(raw),
  events: (action, setting) => [settingEvent(action, setting)],
});

/**
 * The `company-{id}-settings` event of a change. Keys everyone reads go to the company;
 * admin-only keys go to admins with their value masked (write-only); platform credentials go
 * to admins without any value (the event has no super-only scope, so the super user's screen
 * refetches).
 */
function settingEvent(action: string, setting: Setting): BusEvent {
  const { companyId, key, value } = setting;
  const channel = companyChannel(companyId, "settings");
  if (SECRET_SETTING_KEYS.has(key)) {
    return { companyId, channel, data: { action, setting: { key } }, scope: { kind: "admins" } };
  }
  return {
    companyId,
    channel,
    data: { action, setting: { key, value: shownSettingValue(key, value) } },
    scope: ADMIN_SETTING_KEYS.has(key) ? { kind: "admins" } : { kind: "company" },
  };
}

/** A user without its secrets, as every API response shows it. */
export function publicUser(user: User) {
  const { passwordHash: _hash, tokenVersion: _version, ...rest } = user;
  return rest;
}
