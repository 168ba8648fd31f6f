/**
 * Settings (spec 000 §7, 001 §2.4, §3): key/value pairs per company, every known key with a
 * default. Global keys (GLOBAL_SETTING_KEYS) live in the platform company: everyone reads
 * them from there, only super users write them, and the credentials among them
 * (SECRET_SETTING_KEYS) are shown to super users only. Company keys are written by admins;
 * the company's own integration credentials (ADMIN_SETTING_KEYS) are read by admins only.
 * Both kinds of secret are write-only: every answer shows them masked (SECRET_MASK when set,
 * "" when not), the PUT's reply included.
 */
import { Hono } from "hono";
import { platformCompanyId, visibleSettings } from "../../actors/platform/lookup.ts";
import { setSetting } from "../../actors/platform/settings_commands.ts";
import { AppError, forbidden, notFound } from "../../domain/errors.ts";
import { can } from "../../domain/permissions.ts";
import {
  GLOBAL_SETTING_KEYS,
  isSettingKey,
  settingReadable,
  settingValueError,
  SettingUpdate,
  shownSettingValue,
} from "../../domain/settings.ts";
import type { AppEnv } from "../deps.ts";
import { requireAuth, requirePermission } from "../auth/middleware.ts";
import { parseBody } from "../http/validate.ts";
import { recordAudit } from "../audit/record.ts";

const noSetting = (key: string) => notFound("ERR_NO_SETTING_FOUND", `Setting ${key} not found`);

/** The settings routes, mounted at `/settings`. */
export function settingRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const auth = requireAuth();

  app.get("/", auth, async (c) => {
    const who = c.get("principal");
    const all = await visibleSettings(c.get("deps").system, who.companyId, who);
    return c.json(Object.entries(all).map(([key, value]) => ({ key, value })));
  });

  app.get("/:key", auth, async (c) => {
    const key = c.req.param("key");
    const who = c.get("principal");
    if (!isSettingKey(key)) throw noSetting(key);
    if (!settingReadable(who, key)) throw forbidden(`Setting ${key} is not readable by user ${who.id}`);
    const all = await visibleSettings(c.get("deps").system, who.companyId, who);
    return c.json({ key, value: all[key] });
  });

  app.put("/:key", auth, requirePermission("settings:manage"), async (c) => {
    const { system } = c.get("deps");
    const who = c.get("principal");
    const key = c.req.param("key");
    if (!isSettingKey(key)) throw noSetting(key);
    const { value } = await parseBody(c, SettingUpdate);
    let companyId = who.companyId;
    if (GLOBAL_SETTING_KEYS.has(key)) {
      if (!can(who, "super:globalSettings")) throw forbidden(`Setting ${key} is for super users`);
      companyId = await platformCompanyId(system) ?? who.companyId;
    }
    const problem = settingValueError(key, value);
    if (problem) {
      throw new AppError("ERR_VALIDATION", { status: 400, message: problem, fields: { value: problem } });
    }
    const saved = await setSetting(system, companyId, key, value);
    await recordAudit(c.get("deps"), who, "setting.update", { kind: "setting", id: key }, {
      value: shownSettingValue(key, saved.value),
    }, { companyId });
    return c.json({ ...saved, value: shownSettingValue(key, saved.value) });
  });

  return app;
}
