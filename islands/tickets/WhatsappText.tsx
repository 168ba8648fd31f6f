/**
 * A message's text with WhatsApp's formatting (domain/whatsapp_format.ts) as React elements:
 * the parser yields strings only, so nothing a customer writes becomes markup. Links open in a
 * new tab with `rel="noopener noreferrer"`.
 */
import { Fragment, memo, type ReactNode } from "react";
import { type Block, parseWhatsapp, type Span } from "../../domain/whatsapp_format.ts";

function spans(list: readonly Span[]): ReactNode[] {
  return list.map((span, i) => {
    switch (span.kind) {
      case "text":
        return <Fragment key={i}>{span.text}</Fragment>;
      case "link":
        return <a key={i} href={span.href} target="_blank" rel="noopener noreferrer">{span.text}</a>;
      case "mono":
        return <code key={i} className="wa-mono">{span.text}</code>;
      case "bold":
        return <strong key={i}>{spans(span.children)}</strong>;
      case "italic":
        return <em key={i}>{spans(span.children)}</em>;
      case "strike":
        return <s key={i}>{spans(span.children)}</s>;
    }
  });
}

function block(b: Block, i: number): ReactNode {
  switch (b.kind) {
    case "line":
      return <div key={i} className="wa-line">{spans(b.spans)}</div>;
    case "quote":
      return <blockquote key={i} className="wa-quote">{spans(b.spans)}</blockquote>;
    case "code":
      return <pre key={i} className="wa-code">{b.text}</pre>;
    case "bullets":
      return <ul key={i} className="wa-list">{b.items.map((item, k) => <li key={k}>{spans(item)}</li>)}</ul>;
    case "numbered":
      return <ol key={i} className="wa-list" start={b.start}>{b.items.map((item, k) => <li key={k}>{spans(item)}</li>)}</ol>;
  }
}

function WhatsappTextImpl({ text }: { text: string }) {
  return <>{parseWhatsapp(text).map(block)}</>;
}

/** Formatted message text; memoised since a conversation re-renders often and texts do not change. */
export const WhatsappText = memo(WhatsappTextImpl);
