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

Deno.test("errorText() shows the spec's contact texts the server answers, translated, not the code's generic text", () => {
  const wallet = { error: "ERR_NO_PERMISSION", message: "O contato: Maria Souza já está adicionado a uma carteira." };
  const duplicate = { error: "ERR_DUPLICATED_CONTACT", message: "Contato já cadastrado com o nome Maria Souza" };
  try {
    setDict("pt", pt);
    assert.deepEqual(errorText(wallet), { key: "walletTaken", text: wallet.message });
    assert.deepEqual(errorText(duplicate), { key: "duplicatedName", text: duplicate.message });
    setDict("en", en);
    assert.equal(errorText(wallet).text, "The contact Maria Souza is already in a wallet.");
    assert.equal(errorText(duplicate).text, "Contact already registered under the name Maria Souza");
    // Any other message keeps the code's text.
    assert.equal(errorText({ error: "ERR_NO_PERMISSION", message: "Sem Permissão!" }).text, en["backendErrors.ERR_NO_PERMISSION"]);
  } finally {
    setDict("pt", pt);
  }
});
