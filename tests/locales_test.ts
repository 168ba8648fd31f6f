/**
 * Every text in the three languages (issue #41): the Portuguese and Spanish bundles
 * (islands/locales/*.ts with the page files they spread from islands/locales/pages/) have
 * every key of the others, no empty text, and no English: neither a text copied from the
 * English bundle (save the loanwords and names listed below, each the same in that language)
 * nor a word only English has. The English toasts the spec quotes ("Queue saved
 * successfully", "Required", "Too Short!", "Invalid email") leaked into pt this way.
 */
import assert from "node:assert/strict";
import pt from "../islands/locales/pt.ts";
import en from "../islands/locales/en.ts";
import es from "../islands/locales/es.ts";

type Dict = Record<string, string>;
const bundles: Record<"pt" | "en" | "es", Dict> = { pt, en, es };

/** Texts the same in English and in both other languages: names, brands, loanwords. */
const SAME_EVERYWHERE = new Set([
  "API", "Kanban", "Tags", "Tag", "Volume", "Status", "E-mail", "(e-mail)", "Supervisor", "Ticket", "Ticket #{{id}}", "Tickets",
  "{{count}} tickets", "{{n}} min", "Dashboard", "Evolution", "Evolution API", "QR CODE", "WhatsApp", "WhatsApp (Baileys)",
  "WhatsApp Cloud API", "Token", "Webhook", "Webhooks", "URL", " (SUPERUSER)", "Typebot", "Facebook", "Instagram", "Login",
  "Favicon 32×32", "Favicon 256×256", "Online", "Offline", "Endpoint", "Msg. {{n}}", "Chats", "Total", "TOTAL", "Asaas",
  "Asaas: token", "Mercado Pago", "Brasil", "Português", "English", "Español", "Balcão", "ID", "Id",
]);
/** Spanish words spelled as the English ones. */
/** Words Portuguese spells as English does. */
const SAME_IN_PORTUGUESE = new Set(["Latitude", "Longitude"]);
const SAME_IN_SPANISH = new Set(["General", "Color", "Plan", "Error", "Video", "Video: {{title}}", "Variables", "Variables:", "No"]);
/** Texts that name the API's JSON fields, which are English by contract (spec 001 §7). */
const NAMES_FIELDS = new Set(["messagesApi.success"]);

/** Words only English has (whole words, any case): one in a pt or es text is a leak. */
const ENGLISH_ONLY = [
  "the", "and", "with", "from", "your", "you", "this", "please", "successfully", "required", "too", "short", "invalid",
  "click", "waiting", "saved", "save", "delete", "cancel", "search", "loading", "failed", "access", "united", "states",
  "should", "must", "yes", "open", "closed", "pending", "settings", "user", "users", "queue", "queues", "contact", "message",
];
const englishWord = new RegExp(`(^|[^\\p{L}])(${ENGLISH_ONLY.join("|")})(?=$|[^\\p{L}])`, "iu");

Deno.test("locales: pt, en and es have the same keys and no empty text", () => {
  const keys = (d: Dict) => Object.keys(d).sort();
  assert.deepEqual(keys(bundles.en), keys(bundles.pt));
  assert.deepEqual(keys(bundles.es), keys(bundles.pt));
  for (const [lang, dict] of Object.entries(bundles)) {
    const empty = Object.entries(dict).filter(([, v]) => typeof v !== "string" || v.trim() === "").map(([k]) => k);
    assert.deepEqual(empty, [], `${lang} has empty texts`);
  }
});

Deno.test("locales: no English text in the pt and es bundles", () => {
  const leaks: string[] = [];
  for (const lang of ["pt", "es"] as const) {
    for (const [key, text] of Object.entries(bundles[lang])) {
      // Placeholders ({{name}}) and the variables' tokens are not words of the language.
      const words = text.replace(/\{\{\w+\}\}/g, " ");
      const copied = text === bundles.en[key] && /\p{L}{2}/u.test(words) && !SAME_EVERYWHERE.has(text) &&
        !(lang === "es" && SAME_IN_SPANISH.has(text)) && !(lang === "pt" && SAME_IN_PORTUGUESE.has(text));
      const found = NAMES_FIELDS.has(key) ? null : englishWord.exec(words);
      if (copied) leaks.push(`${lang} ${key}: ${JSON.stringify(text)} is the English text`);
      else if (found) leaks.push(`${lang} ${key}: ${JSON.stringify(text)} has the English word "${found[2]}"`);
    }
  }
  assert.deepEqual(leaks, []);
});
