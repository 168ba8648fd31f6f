/**
 * The conversation's message search (spec 000 §2 ticket header, §7 GET
 * /messages/searchMessage/{ticketId}): the server answers every match of the whole
 * conversation, newest first; the bar shows "N de M" and steps to older and newer matches.
 * A match above the loaded pages has its pages loaded first (use_messages.ts reveal), then it
 * is scrolled into the middle of the view and marked.
 */
import { type FormEvent, useState } from "react";
import { ChevronDown, ChevronUp } from "lucide-react";
import { get, query } from "../lib/api.ts";
import { t } from "../lib/i18n.ts";
import { toastError } from "../lib/toast.ts";
import type { Messages } from "./use_messages.ts";

/** Resolves once the element of message `id` is in the page (after React commits a loaded page). */
async function bubbleOf(id: string): Promise<Element | null> {
  const selector = `[data-message-id="${CSS.escape(id)}"]`;
  for (let frame = 0; frame < 60; frame++) {
    const el = document.querySelector(selector);
    if (el) return el;
    await new Promise((resolve) => requestAnimationFrame(resolve));
  }
  return null;
}

/** Props of MessageSearch. */
export interface MessageSearchProps {
  ticketId: number;
  data: Pick<Messages, "reveal">;
}

/** The search bar under the ticket header. */
export function MessageSearch({ ticketId, data }: MessageSearchProps) {
  const [term, setTerm] = useState("");
  const [searched, setSearched] = useState("");
  const [ids, setIds] = useState<string[] | null>(null);
  const [index, setIndex] = useState(0);
  const [loading, setLoading] = useState(false);

  async function show(list: string[], i: number) {
    setIndex(i);
    const id = list[i];
    if (!id) return;
    setLoading(true);
    try {
      if (!(await data.reveal(id))) return;
      const el = await bubbleOf(id);
      document.querySelectorAll(".bubble-row.found").forEach((x) => x.classList.remove("found"));
      el?.classList.add("found");
      el?.scrollIntoView({ block: "center" });
    } finally {
      setLoading(false);
    }
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const text = term.trim();
    if (!text) return;
    // Enter again on the same words steps to the next older match.
    if (ids && text === searched) return void show(ids, Math.min(index + 1, ids.length - 1));
    try {
      const r = await get<{ messagesIds: string[] }>(`/messages/searchMessage/${ticketId}` + query({ searchedTerm: text }));
      const found = r.messagesIds ?? [];
      setSearched(text);
      setIds(found);
      await show(found, 0);
    } catch (error) {
      toastError((error as { body?: unknown }).body ?? error);
    }
  }

  const total = ids?.length ?? 0;
  return (
    <form className="message-search" role="search" onSubmit={submit} data-testid="message-search">
      <input className="input" type="search" autoFocus value={term} placeholder={t("tickets.searchMessages")} aria-label={t("tickets.searchMessages")} onChange={(e) => setTerm(e.target.value)} />
      {ids && (
        <span className="message-search-count muted" role="status" data-testid="message-search-count">
          {loading ? t("inbox.search.loading") : total === 0 ? t("inbox.search.none") : t("inbox.search.count", { index: index + 1, total })}
        </span>
      )}
      <button type="button" className="icon-btn" aria-label={t("inbox.search.older")} title={t("inbox.search.older")} disabled={!ids || index >= total - 1 || loading} onClick={() => ids && show(ids, index + 1)} data-testid="search-older">
        <ChevronUp size={18} />
      </button>
      <button type="button" className="icon-btn" aria-label={t("inbox.search.newer")} title={t("inbox.search.newer")} disabled={!ids || index <= 0 || loading} onClick={() => ids && show(ids, index - 1)} data-testid="search-newer">
        <ChevronDown size={18} />
      </button>
    </form>
  );
}
