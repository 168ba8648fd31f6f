/**
 * WhatsApp's text formatting (issue #23 §5): `*bold*`, `_italic_`, `~strike~`, ```` ```mono``` ````,
 * `` `code` ``, `> quote` lines, `* ` / `- ` bullet lines and `1. ` numbered lines, read the way the
 * phone app reads them: a marker opens only at the start of a word (after a space, a line start or
 * punctuation) before a non-space, and closes only after a non-space at the end of a word, on the
 * same line. So `2*3*4` and `snake_case_name` stay plain, as on the phone.
 *
 * The result is a tree of plain strings, never HTML: the bubble renders it as React elements, so a
 * message can not inject markup whatever it contains. `plainText` gives the same text without the
 * markers for list previews and notifications; the text sent to WhatsApp is never touched.
 */

/** An inline piece of a line. */
export type Span =
  | { kind: "text"; text: string }
  | { kind: "link"; href: string; text: string }
  | { kind: "mono"; text: string }
  | { kind: "bold" | "italic" | "strike"; children: Span[] };

/** A block of a message: a paragraph line, a quote line, a list, or a ```` ``` ```` block. */
export type Block =
  | { kind: "line"; spans: Span[] }
  | { kind: "quote"; spans: Span[] }
  | { kind: "bullets"; items: Span[][] }
  | { kind: "numbered"; start: number; items: Span[][] }
  | { kind: "code"; text: string };

const STYLE_OF: Record<string, "bold" | "italic" | "strike"> = { "*": "bold", "_": "italic", "~": "strike" };

/** Characters a marker may touch on its outer side besides whitespace and the text's ends. */
const OUTER = /[\s.,;:!?()[\]{}"'«»“”‘’*_~`-]/;

const LINK = /\b(?:https?:\/\/|www\.)[^\s<>"]+[^\s<>".,;:!?)\]'’”]/gi;

function outerOk(ch: string | undefined): boolean {
  return ch === undefined || OUTER.test(ch);
}

function isSpace(ch: string | undefined): boolean {
  return ch === undefined || /\s/.test(ch);
}

/** The first link of a message's text as its href (www. links get https), or null: the one a link preview shows. */
export function firstLink(text: string): string | null {
  const match = new RegExp(LINK.source, "i").exec(text);
  if (!match) return null;
  return match[0].startsWith("www.") ? `https://${match[0]}` : match[0];
}

/** Plain text with links cut out as their own spans. */
function textWithLinks(text: string): Span[] {
  const spans: Span[] = [];
  let last = 0;
  for (const match of text.matchAll(LINK)) {
    const at = match.index ?? 0;
    if (at > last) spans.push({ kind: "text", text: text.slice(last, at) });
    const href = match[0].startsWith("www.") ? `https://${match[0]}` : match[0];
    spans.push({ kind: "link", href, text: match[0] });
    last = at + match[0].length;
  }
  if (last < text.length) spans.push({ kind: "text", text: text.slice(last) });
  return spans;
}

/** Where the marker opened at `open` closes on this line, or -1. */
function closingOf(line: string, open: number, marker: string): number {
  for (let j = open + marker.length + 1; j <= line.length - marker.length; j++) {
    if (line.slice(j, j + marker.length) !== marker) continue;
    if (isSpace(line[j - 1])) continue;
    if (marker.length === 1 && !outerOk(line[j + 1])) continue;
    return j;
  }
  return -1;
}

/** The inline spans of one line (no newlines inside). */
export function parseInline(line: string): Span[] {
  const spans: Span[] = [];
  let plainFrom = 0;
  let i = 0;
  const flush = (to: number) => {
    if (to > plainFrom) spans.push(...textWithLinks(line.slice(plainFrom, to)));
  };
  while (i < line.length) {
    const marker = line.startsWith("```", i) ? "```" : line[i];
    const opens = (marker === "```" || marker === "`" || marker in STYLE_OF) &&
      outerOk(line[i - 1]) && !isSpace(line[i + marker.length]);
    const close = opens ? closingOf(line, i, marker) : -1;
    if (close < 0) {
      i += marker.length;
      continue;
    }
    flush(i);
    const inner = line.slice(i + marker.length, close);
    spans.push(
      marker === "```" || marker === "`"
        ? { kind: "mono", text: inner }
        : { kind: STYLE_OF[marker], children: parseInline(inner) },
    );
    i = close + marker.length;
    plainFrom = i;
  }
  flush(line.length);
  return spans;
}

const BULLET = /^\s*[*-]\s+(.*)$/;
const NUMBERED = /^\s*(\d{1,3})\.\s+(.*)$/;
const QUOTE = /^>\s?(.*)$/;

/** The blocks of a whole message. */
export function parseWhatsapp(text: string): Block[] {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.startsWith("```") && !line.slice(3).includes("```")) {
      const end = lines.findIndex((l, j) => j > i && l.trimEnd().endsWith("```"));
      if (end > i) {
        const body = [line.slice(3), ...lines.slice(i + 1, end), lines[end].trimEnd().slice(0, -3)];
        blocks.push({ kind: "code", text: body.join("\n").replace(/^\n|\n$/g, "") });
        i = end;
        continue;
      }
    }
    const bullet = BULLET.exec(line);
    const numbered = bullet ? null : NUMBERED.exec(line);
    const quote = QUOTE.exec(line);
    const prev = blocks.at(-1);
    if (bullet) {
      const spans = parseInline(bullet[1]);
      if (prev?.kind === "bullets") prev.items.push(spans);
      else blocks.push({ kind: "bullets", items: [spans] });
    } else if (numbered) {
      const spans = parseInline(numbered[2]);
      if (prev?.kind === "numbered") prev.items.push(spans);
      else blocks.push({ kind: "numbered", start: Number(numbered[1]), items: [spans] });
    } else if (quote) {
      blocks.push({ kind: "quote", spans: parseInline(quote[1]) });
    } else {
      blocks.push({ kind: "line", spans: parseInline(line) });
    }
  }
  return blocks;
}

/** The visible text of spans, without markers. */
export function spansText(spans: readonly Span[]): string {
  return spans.map((s) => "children" in s ? spansText(s.children) : s.text).join("");
}

/** The message as it reads once formatted, without any marker (previews, notifications). */
export function plainText(text: string): string {
  return parseWhatsapp(text).map((block) => {
    switch (block.kind) {
      case "code":
        return block.text;
      case "bullets":
        return block.items.map((item) => `• ${spansText(item)}`).join("\n");
      case "numbered":
        return block.items.map((item, k) => `${block.start + k}. ${spansText(item)}`).join("\n");
      default:
        return spansText(block.spans);
    }
  }).join("\n");
}
