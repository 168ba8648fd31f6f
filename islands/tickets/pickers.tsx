/**
 * Form parts the ticket dialogs share: the contact search (pick one at a time, or tick
 * several), the picked contacts as removable chips, a required-looking select of options
 * (queue, connection) and the connection choice that preselects the default connection.
 */
import { useEffect, useState } from "react";
import { X } from "lucide-react";
import { t } from "../lib/i18n.ts";
import type { Option } from "./types.ts";
import { useOptions } from "../ui/use_options.ts";
import { SEARCH_MIN, useSearch } from "./use_search.ts";

/** Props of ContactSearch. */
export interface ContactSearchProps {
  text: string;
  onTextChange: (text: string) => void;
  results: Option[];
  onPick: (contact: Option) => void;
  error?: string;
  autoFocus?: boolean;
  /** List from 3 characters with a "no results" line and each contact's number. */
  detailed?: boolean;
}

/** A contact search field and the list of matches; clicking a match picks it. */
export function ContactSearch({ text, onTextChange, results, onPick, error, autoFocus, detailed }: ContactSearchProps) {
  const shown = detailed ? text.trim().length >= SEARCH_MIN : results.length > 0;
  return (
    <>
      <label className="field">
        <span>{t("newTicket.searchContact")}</span>
        <input type="search" value={text} onChange={(e) => onTextChange(e.target.value)} aria-invalid={detailed ? !!error : undefined} autoFocus={autoFocus} />
        {error && <small className="field-error">{error}</small>}
      </label>
      {shown && (
        <ul className="pick-list" aria-label={detailed ? t("newTicket.searchContact") : undefined}>
          {detailed && results.length === 0 && <li className="muted">{t("newTicket.noResults")}</li>}
          {results.map((c) => (
            <li key={c.id}>
              <button type="button" className="pick" onClick={() => onPick(c)}>
                {c.name}
                {detailed && <> <span className="muted">{(c as Option & { number?: string }).number}</span></>}
              </button>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

/** The picked contacts as chips, each with a remove button. */
export function ContactChips({ contacts, onChange }: { contacts: Option[]; onChange: (contacts: Option[]) => void }) {
  return (
    <div className="chips">
      {contacts.map((c) => (
        <span key={c.id} className="chip chip-removable">
          {c.name}
          <button type="button" aria-label={`${t("common.delete")} ${c.name}`} onClick={() => onChange(contacts.filter((x) => x.id !== c.id))}>
            <X size={12} />
          </button>
        </span>
      ))}
    </div>
  );
}

/** Props of OptionSelect. */
export interface OptionSelectProps {
  label: string;
  value: number | "";
  onChange: (value: number | "") => void;
  options: Option[];
  error?: string;
}

/** A labelled select of options with an empty "select" choice and the field's error. */
export function OptionSelect({ label, value, onChange, options, error }: OptionSelectProps) {
  return (
    <label className="field">
      <span>{label}</span>
      <select value={value} onChange={(e) => onChange(e.target.value ? Number(e.target.value) : "")} aria-invalid={!!error}>
        <option value="">{t("common.select")}</option>
        {options.map((o) => <option key={o.id} value={o.id}>{o.name}</option>)}
      </select>
      {error && <small className="field-error">{error}</small>}
    </label>
  );
}

/**
 * The company's connections and the chosen one: starts at `initial` and, while nothing is
 * chosen, preselects the default connection (or the only one) once the list loads.
 */
export function useConnectionChoice(initial: number | "") {
  const [whatsappId, setWhatsappId] = useState<number | "">(initial);
  const connections = useOptions("/whatsapp");
  useEffect(() => {
    const preferred = connections.find((c) => (c as Option & { isDefault?: boolean }).isDefault) ??
      (connections.length === 1 ? connections[0] : undefined);
    if (whatsappId === "" && preferred) setWhatsappId(preferred.id);
  }, [connections]);
  return { connections, whatsappId, setWhatsappId };
}

/** State of a contact checklist: the search text, its matches and the ticked contacts. */
export function useContactChecks() {
  const [text, setText] = useState("");
  const [picked, setPicked] = useState<Option[]>([]);
  const results = useSearch("/contacts/", text, "contacts");
  return { text, setText, picked, setPicked, results };
}

/** A contact search with a checkbox per match (several contacts at once). */
export function ContactChecklist({ text, setText, picked, setPicked, results }: ReturnType<typeof useContactChecks>) {
  return (
    <>
      <input className="input" type="search" value={text} placeholder={t("newTicket.searchContact")} aria-label={t("newTicket.searchContact")} onChange={(e) => setText(e.target.value)} />
      <ul className="pick-list">
        {results.map((c) => (
          <li key={c.id}>
            <label className="check">
              <input type="checkbox" checked={picked.some((p) => p.id === c.id)} onChange={(e) => setPicked(e.target.checked ? [...picked, c] : picked.filter((p) => p.id !== c.id))} />
              <span>{c.name}</span>
            </label>
          </li>
        ))}
      </ul>
    </>
  );
}
