import assert from "node:assert/strict";
import {
  invalidReplyText,
  matchReply,
  newSurveyKey,
  RATING_NAME_SHORT,
  RATING_OPTIONS_REQUIRED,
  RATING_VALUE_NUMERIC,
  RATING_VALUE_REPEATED,
  RatingInput,
  surveyLink,
  surveyText,
} from "./rating.ts";

const options = [
  { name: "Ruim", value: 1 },
  { name: "Ótimo", value: 5 },
  { name: "Excelente demais", value: 10 },
];

Deno.test("matchReply() takes an option's value or its name, and nothing else", () => {
  assert.equal(matchReply("5", options)?.value, 5);
  assert.equal(matchReply(" *10* ", options)?.value, 10);
  assert.equal(matchReply("1.", options)?.value, 1);
  assert.equal(matchReply("otimo", options)?.value, 5);
  assert.equal(matchReply("EXCELENTE  demais", options)?.value, 10);
  assert.equal(matchReply("3", options), null);
  assert.equal(matchReply("nota 5", options), null);
  assert.equal(matchReply("", options), null);
  assert.equal(matchReply("obrigado!", options), null);
});

Deno.test("surveyText() joins the intro, the question, the options and the link", () => {
  const text = surveyText({ intro: "Olá!", question: "Como foi?", options, link: "https://x.test/survey?chavePesquisa=k" });
  assert.equal(text, "Olá!\n\nComo foi?\n\n*1* - Ruim\n*5* - Ótimo\n*10* - Excelente demais\n\nhttps://x.test/survey?chavePesquisa=k");
  assert.equal(surveyText({ intro: " ", question: "Q", options: [options[0]], link: null }), "Q\n\n*1* - Ruim");
  assert.match(invalidReplyText(options), /Opção inválida[\s\S]*\*5\* - Ótimo/);
});

Deno.test("surveyLink() adds chavePesquisa to ratingurl; none when unset or invalid", () => {
  assert.equal(surveyLink("https://app.test/survey", "abc"), "https://app.test/survey?chavePesquisa=abc");
  assert.equal(surveyLink("https://app.test/survey?x=1", "a b"), "https://app.test/survey?x=1&chavePesquisa=a+b");
  assert.equal(surveyLink("", "abc"), null);
  assert.equal(surveyLink("not a url", "abc"), null);
});

Deno.test("newSurveyKey() is URL-safe and 128 bits", () => {
  const keys = new Set(Array.from({ length: 100 }, newSurveyKey));
  assert.equal(keys.size, 100);
  for (const key of keys) assert.match(key, /^[A-Za-z0-9_-]{22}$/);
});

Deno.test("RatingInput carries the spec's texts (002 §5)", () => {
  const fail = (body: unknown) => {
    const result = RatingInput.safeParse(body);
    assert.equal(result.success, false);
    // The first message per field, as the API's `fields` carries it (server/http/validate.ts).
    const fields: Record<string, string> = {};
    for (const issue of result.error!.issues) fields[issue.path.join(".")] ??= issue.message;
    return fields;
  };
  const ok = { name: "NPS", message: "Nota?", options: [{ name: "Boa", value: "5" }] };
  const parsed = RatingInput.parse(ok);
  assert.deepEqual(parsed.options, [{ name: "Boa", value: 5 }]);
  assert.equal(parsed.geral, true);
  assert.equal(fail({ ...ok, name: "ab" }).name, RATING_NAME_SHORT);
  assert.equal(fail({ ...ok, name: "" }).name, "Obrigatório");
  assert.equal(fail({ ...ok, message: " " }).message, "Obrigatório");
  assert.equal(fail({ ...ok, options: [{ name: "x", value: "abc" }] })["options.0.value"], RATING_VALUE_NUMERIC);
  assert.equal(fail({ ...ok, options: [] }).options, RATING_OPTIONS_REQUIRED);
  assert.equal(fail({ ...ok, options: [{ name: "a", value: 1 }, { name: "b", value: 1 }] }).options, RATING_VALUE_REPEATED);
});
