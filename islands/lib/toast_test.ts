import assert from "node:assert/strict";
import { errorText } from "./toast.ts";
import { setDict } from "./i18n.ts";
import pt from "../locales/pt.ts";
import en from "../locales/en.ts";
import es from "../locales/es.ts";

Deno.test("errorText() translates ERR_STORE_UNAVAILABLE (the 503 of a store refusing writes) in pt, en and es", () => {
  const shown = new Set<string>();
  try {
    for (const [lang, dict] of [["pt", pt], ["en", en], ["es", es]] as const) {
      setDict(lang, dict);
      for (const error of [{ code: "ERR_STORE_UNAVAILABLE" }, { error: "ERR_STORE_UNAVAILABLE", message: "raw" }]) {
        const { key, text } = errorText(error);
        assert.equal(key, "ERR_STORE_UNAVAILABLE");
        assert.notEqual(text, "ERR_STORE_UNAVAILABLE", `${lang}: shown raw`);
        assert.equal(text, dict["backendErrors.ERR_STORE_UNAVAILABLE"]);
        shown.add(text);
      }
    }
  } finally {
    setDict("pt", pt);
  }
  assert.equal(shown.size, 3, "one text per language");
});
