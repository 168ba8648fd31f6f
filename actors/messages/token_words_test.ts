/**
 * The search index's tokenizer (issue #34): one pass over a body's characters finds the words
 * that splitting it on `/\s+/` and taking each token's words (`wordsOf`, a `#` before a word
 * that starts with a digit, at most MAX_WORD characters) found, in the same order.
 */
import assert from "node:assert/strict";
import { MIN_WORD, wordsOf } from "../../domain/message.ts";
import { MAX_WORD, TokenWords } from "./search_index.ts";

/** The words as the index took them before the one-pass tokenizer. */
function splitWords(body: string): string[] {
  const words: string[] = [];
  for (const token of body.split(/\s+/)) {
    if (token.length === 0) continue;
    const plain = /^[a-z0-9]+$/.test(token);
    const found = plain ? (token.length >= MIN_WORD && token.length <= MAX_WORD ? [token] : []) : [...wordsOf(token)].filter((w) => w.length <= MAX_WORD);
    for (const word of found) words.push(/^[0-9]/.test(word) ? "#" + word : word);
  }
  return words;
}

/** Characters a body is drawn from: every whitespace `\s` knows, and some it does not. */
const PIECES = [
  "a", "e", "o", "z", "m", "0", "7", "9", "A", "Ç", "ção", "é", "Ñ", "ß", "-", ".", ",", "!", "#", "😀", "日本",
  " ", "  ", "\t", "\n", "\r\n", "\v", "\f", "\u00a0", "\u1680", "\u2000", "\u2005", "\u200a", "\u2028", "\u2029",
  "\u202f", "\u205f", "\u3000", "\ufeff", "\u0085", "\u200b", "\u180e",
];

Deno.test("TokenWords.collect finds the words splitting on whitespace found, in order", () => {
  const tokens = new TokenWords();
  let seed = 34;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const bodies = ["", " ", "mensagem 123 do cliente", "x".repeat(MAX_WORD), "y".repeat(MAX_WORD + 1), "Olá, Mundo!", "12345 0042"];
  for (let n = 0; n < 3000; n++) {
    let body = "";
    const length = Math.floor(random() * 40);
    for (let i = 0; i < length; i++) {
      const piece = PIECES[Math.floor(random() * PIECES.length)];
      body += random() < 0.3 ? piece.repeat(1 + Math.floor(random() * 30)) : piece;
    }
    bodies.push(body);
  }
  for (const body of bodies) {
    const count = tokens.collect(body);
    assert.deepEqual(tokens.found.slice(0, count), splitWords(body), JSON.stringify(body));
  }
});
