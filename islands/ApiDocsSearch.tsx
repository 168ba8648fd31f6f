/**
 * The /api-docs page's search and expand/collapse bar. The operations are server-rendered
 * `<details>` outside this island (the page works without script); the bar filters them by
 * their `data-search` text and opens or closes the ones shown.
 */
import { useEffect, useState } from "react";
import { t } from "./lib/i18n.ts";

/** Props of the ApiDocsSearch island: how many operations the page lists. */
export interface ApiDocsSearchProps {
  total: number;
}

/** Shows the operations matching every word of `query`; returns how many are shown. */
function applyFilter(query: string): number {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  let shown = 0;
  for (const section of document.querySelectorAll<HTMLElement>("[data-tag-section]")) {
    let inSection = 0;
    for (const op of section.querySelectorAll<HTMLElement>("[data-op]")) {
      const text = op.dataset.search ?? "";
      const match = words.every((w) => text.includes(w));
      op.hidden = !match;
      if (match) inSection++;
    }
    section.hidden = inSection === 0;
    shown += inSection;
  }
  return shown;
}

function setOpen(open: boolean): void {
  for (const op of document.querySelectorAll<HTMLDetailsElement>("details[data-op]")) {
    if (!op.hidden) op.open = open;
  }
}

/** The bar. */
export default function ApiDocsSearch({ total }: ApiDocsSearchProps) {
  const [query, setQuery] = useState("");
  const [shown, setShown] = useState(total);
  useEffect(() => setShown(applyFilter(query)), [query]);
  return (
    <div className="api-toolbar" data-testid="api-docs-search">
      <input
        className="input"
        type="search"
        value={query}
        placeholder={t("apiDocs.search")}
        aria-label={t("apiDocs.search")}
        onChange={(e) => setQuery(e.currentTarget.value)}
      />
      <div className="api-toolbar-actions">
        <button type="button" className="btn" onClick={() => setOpen(true)}>{t("apiDocs.expandAll")}</button>
        <button type="button" className="btn" onClick={() => setOpen(false)}>{t("apiDocs.collapseAll")}</button>
      </div>
      <p className="api-count" role="status">
        {shown === 0 ? t("apiDocs.none") : t("apiDocs.shown", { shown, total })}
      </p>
    </div>
  );
}
