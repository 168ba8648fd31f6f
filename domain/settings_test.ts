import assert from "node:assert/strict";
import {
  GLOBAL_SETTING_KEYS,
  isSettingKey,
  SECRET_SETTING_KEYS,
  settingValueError,
} from "./settings.ts";

Deno.test("settingValueError() checks choices and the trial range", () => {
  assert.equal(settingValueError("scheduleType", "queue"), null);
  assert.match(settingValueError("scheduleType", "weekly") ?? "", /one of/);
  assert.equal(settingValueError("trial", "7"), null);
  assert.match(settingValueError("trial", "8") ?? "", /1 to 7/);
  assert.equal(settingValueError("userRating", "enabled"), null);
});

Deno.test("isSettingKey() knows every default key; secrets are global keys", () => {
  assert.equal(isSettingKey("trial"), true);
  assert.equal(isSettingKey("toString"), false);
  assert.equal(isSettingKey("nope"), false);
  for (const key of SECRET_SETTING_KEYS) assert.ok(GLOBAL_SETTING_KEYS.has(key), key);
});
