/** The kit's search field: a magnifier and a search input labelled "Pesquisar" (pt). */
import { Search } from "lucide-react";
import { t } from "../lib/i18n.ts";

/** Props of SearchBox. */
export interface SearchBoxProps {
  value: string;
  onChange: (value: string) => void;
  autoFocus?: boolean;
}

/** A search input with its icon, for page toolbars and dialogs. */
export function SearchBox({ value, onChange, autoFocus }: SearchBoxProps) {
  return (
    <label className="search-box">
      <Search size={16} aria-hidden="true" />
      <input
        type="search"
        className="input"
        placeholder={t("common.search")}
        aria-label={t("common.search")}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        autoFocus={autoFocus}
      />
    </label>
  );
}
