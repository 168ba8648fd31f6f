import assert from "node:assert/strict";
import {
  GLOBAL_SETTING_KEYS,
  isSettingKey,
  SECRET_MASK,
  SECRET_SETTING_KEYS,
  settingValueError,
  shownSettingValue,
  WRITE_ONLY_SETTING_KEYS,
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

Deno.test("shownSettingValue() masks every write-only key when set and shows it empty when not", () => {
  for (const key of WRITE_ONLY_SETTING_KEYS) {
    assert.equal(shownSettingValue(key, "abc"), SECRET_MASK, key);
    assert.equal(shownSettingValue(key, ""), "", key);
  }
  for (const key of SECRET_SETTING_KEYS) assert.ok(WRITE_ONLY_SETTING_KEYS.has(key), key);
  assert.equal(shownSettingValue("trial", "3"), "3");
  assert.match(settingValueError("sendgridapi", SECRET_MASK) ?? "", /not the mask/);
});
